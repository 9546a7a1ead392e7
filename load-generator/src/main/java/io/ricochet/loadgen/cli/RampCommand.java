package io.ricochet.loadgen.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

@Command(name = "ramp", mixinStandardHelpOptions = true, description = "Not yet implemented.")
final class RampCommand implements Callable<Integer> {
    @Override
    public Integer call() {
        System.err.println("load-generator: ramp is not implemented yet");
        return ExitCodes.USAGE;
    }
}
