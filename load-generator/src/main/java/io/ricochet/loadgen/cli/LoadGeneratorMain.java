package io.ricochet.loadgen.cli;

import io.ricochet.commandline.ExitCodes;
import io.ricochet.config.LeakDetection;
import io.ricochet.transport.IoTransport;
import picocli.CommandLine.Command;
import picocli.CommandLine;

/** {@code java -jar load-generator.jar <command> [options]}; exit 0 clean, 1 bad replies or errors, 2 usage, 99 a broken threshold. */
@Command(name = "load-generator", mixinStandardHelpOptions = true, version = "ricochet load-generator 0.1.0",
        description = "Load tests for framed TCP, UDP and QUIC services and Ricochet RPC servers: your own, with a "
                + "workload from a jar (--workload), a --payload and --expect, or any RPC method of a descriptor set "
                + "(rpc --proto); by default the reference reversed-echo server's. Every reply is checked; latency goes "
                + "into HdrHistogram. Without --target a command starts an embedded echo server.",
        subcommands = {EchoCommand.class, RrCommand.class, CrrCommand.class, UdpStreamCommand.class,
            SweepCommand.class, RampCommand.class, MassiveCommand.class, RpcCommand.class,
            RegisterCommand.class, ControllerCommand.class, PlanCommand.class, WorkerCommand.class, ReportCommand.class, CompareCommand.class})
public final class LoadGeneratorMain implements Runnable {

    public static void main(String[] args) {
        LeakDetection.offUnlessAsked();
        IoTransport.preferOneShotIoUringPoll();
        System.exit(newCommandLine().execute(args));
    }

    /** picocli's words for a map option's value without '=' ("Value for option option '--x' ..."), said as ours. */
    private static final java.util.regex.Pattern NOT_KEY_VALUE = java.util.regex.Pattern.compile(
            "Value for option option '([^']+)' \\([^)]*\\) should be in KEY=VALUE format but was (.*)");

    /** {@code message} as this tool says such things: one value, and what was expected. */
    static String usageMessage(String message) {
        java.util.regex.Matcher m = NOT_KEY_VALUE.matcher(message == null ? "" : message);
        return m.matches() ? "invalid option value: " + m.group(1) + " " + m.group(2) + " (expected: KEY=VALUE)"
                : message;
    }

    public static CommandLine newCommandLine() {
        CommandLine cli = new CommandLine(new LoadGeneratorMain());
        // Everything after the controller's first positional (the scenario's name) belongs to the scenario.
        cli.getSubcommands().get("controller").setStopAtPositional(true);
        cli.getSubcommands().get("plan").setStopAtPositional(true);
        // picocli would splice an @FILE argument's words into the command line: --payload @FILE and --data @FILE are
        // the flags' own values, read by their bounded reader.
        cli.setExpandAtFiles(false);
        cli.setParameterExceptionHandler((e, args) -> {
            e.getCommandLine().getErr().println("load-generator: " + usageMessage(e.getMessage()) + " (see --help)");
            return ExitCodes.USAGE;
        });
        // Every run that wrote a report directory ends by drawing its report.html.
        cli.setExecutionStrategy(parsed -> {
            int exit = new CommandLine.RunLast().execute(parsed);
            Reports.writeHtml(reportDir(parsed), parsed.commandSpec().commandLine().getErr());
            return exit;
        });
        cli.setExecutionExceptionHandler((e, parsed, result) -> {
            parsed.getErr().println("load-generator: " + (e.getMessage() == null ? e.toString() : e.getMessage()));
            return ExitCodes.FAILURE;
        });
        return cli;
    }

    /**
     * The report directory of the command that ran, or null: its scenario's report, as flags and a scenario file give
     * it; none after {@code --print-scenario} or {@code --workload list}, which run nothing.
     */
    private static java.nio.file.Path reportDir(CommandLine.ParseResult parsed) {
        CommandLine.ParseResult last = parsed;
        while (last.subcommand() != null) {
            last = last.subcommand();
        }
        // The controller draws its own: its scenario is parsed inside it.
        if (!(last.commandSpec().userObject() instanceof LoadCommand command) || command.common.printScenario
                || (command.workloadOptions() != null && command.workloadOptions().listing())) {
            return null;
        }
        try {
            return command.scenario().report();
        } catch (CommandLine.ParameterException e) {
            return null;
        }
    }

    @Override
    public void run() {
        throw new CommandLine.ParameterException(new CommandLine(this), "a command is required");
    }
}
