package io.ricochet.loadgen.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

@Command(name = "udp-stream", mixinStandardHelpOptions = true, description = "Not yet implemented.")
final class UdpStreamCommand implements Callable<Integer> {
    @Override
    public Integer call() {
        System.err.println("load-generator: udp-stream is not implemented yet");
        return ExitCodes.USAGE;
    }
}
