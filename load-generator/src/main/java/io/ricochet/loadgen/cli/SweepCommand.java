package io.ricochet.loadgen.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

@Command(name = "sweep", mixinStandardHelpOptions = true, description = "Not yet implemented.")
final class SweepCommand implements Callable<Integer> {
    @Override
    public Integer call() {
        System.err.println("load-generator: sweep is not implemented yet");
        return ExitCodes.USAGE;
    }
}
