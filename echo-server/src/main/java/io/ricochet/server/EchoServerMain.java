package io.ricochet.server;

import io.ricochet.commandline.ExitCodes;
import io.ricochet.config.LeakDetection;
import io.ricochet.transport.IoTransport;
import picocli.CommandLine;

/** {@code java -jar echo-server.jar [options]}: exit 0 after a graceful stop, 1 if it cannot start, 2 for a usage error. */
public final class EchoServerMain {
    private EchoServerMain() {
    }

    public static void main(String[] args) {
        LeakDetection.offUnlessAsked();
        IoTransport.preferOneShotIoUringPoll();
        System.exit(newCommandLine(new EchoServerCommand(new SignalShutdown())).execute(args));
    }

    static CommandLine newCommandLine(EchoServerCommand command) {
        CommandLine cli = new CommandLine(command);
        cli.setParameterExceptionHandler((e, args) -> {
            e.getCommandLine().getErr().println("echo-server: " + e.getMessage() + " (see --help)");
            return ExitCodes.USAGE;
        });
        cli.setExecutionExceptionHandler((e, parsed, result) -> {
            parsed.getErr().println("echo-server: " + e.getMessage());
            return ExitCodes.FAILURE;
        });
        return cli;
    }
}
