package io.ricochet.loadgen.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

@Command(name = "crr", mixinStandardHelpOptions = true, description = "Not yet implemented.")
final class CrrCommand implements Callable<Integer> {
    @Override
    public Integer call() {
        System.err.println("load-generator: crr is not implemented yet");
        return ExitCodes.USAGE;
    }
}
