package io.ricochet.loadgen.cli;

import io.ricochet.commandline.ExitCodes;
import io.ricochet.loadgen.run.WorkloadCatalog;
import io.ricochet.loadgen.scenario.Command;
import io.ricochet.loadgen.scenario.Scenario;
import io.ricochet.loadgen.scenario.ScenarioException;
import io.ricochet.loadgen.scenario.ScenarioFileException;
import io.ricochet.loadgen.scenario.ScenarioFiles;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import java.util.function.Predicate;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.Spec;

/**
 * A command that runs a load: its flags map to a {@link Scenario} (over {@code --scenario FILE}'s, when given), which
 * it prints ({@code --print-scenario}) or runs. The scenario is validated in one place; a refusal names the flag the
 * value came from, or the file's key, line and column. Every one takes the {@link CommonOptions}.
 */
abstract class LoadCommand implements Callable<Integer> {
    @Spec
    CommandSpec commandSpec;
    @Mixin
    CommonOptions common;

    /** The options every command takes. */
    CommonOptions common() {
        return common;
    }

    /** Which command this is, for its scenario's defaults and checks. */
    abstract Command command();

    /** Sets on {@code b} what this command's own flags that were {@code given} say (the common ones are set). */
    abstract void applyFlags(Scenario.Builder b, Predicate<String> given);

    /** Runs {@code s} in this process, with {@code alone}'s stop signals and metrics; returns the exit status. */
    abstract int runAlone(Scenario s, StandAlone alone) throws Exception;

    /** The command's workload options, for {@code --workload list}; null for a command without them. */
    WorkloadOptions workloadOptions() {
        return null;
    }

    /**
     * The scenario of the flags as parsed: the command's defaults, or {@code --scenario}'s file, with every flag given
     * on the command line set over them; validated, a refusal a usage error of one line.
     */
    Scenario scenario() {
        ParseResult parsed = commandSpec.commandLine().getParseResult();
        Predicate<String> given = name -> parsed != null && parsed.hasMatchedOption(name);
        ScenarioFiles.Base base = null;
        Scenario.Builder b;
        if (common.scenarioFile != null) {
            try {
                base = ScenarioFiles.base(common.scenarioFile, command());
            } catch (ScenarioFileException e) {
                throw new ParameterException(commandSpec.commandLine(), e.getMessage());
            }
            b = base.builder();
        } else {
            b = Scenario.builder(command());
        }
        try {
            common.applyTo(b, given);
            applyFlags(b, given);
            return b.build();
        } catch (IllegalArgumentException e) {
            String key = keyOf(e);
            if (base != null && key != null && base.gives(key) && !given.test(FlagNames.of(command(), key))) {
                throw new ParameterException(commandSpec.commandLine(), base.located(e).getMessage());
            }
            throw usage(e);
        }
    }

    /** The key a scenario's refusal is about, or null. */
    private static String keyOf(IllegalArgumentException e) {
        return e instanceof ScenarioException s ? s.key()
                : e instanceof io.ricochet.config.InvalidValueException v ? v.field() : null;
    }

    /** A refusal of this command's scenario as a usage error naming its flags. */
    ParameterException usage(IllegalArgumentException e) {
        return FlagNames.usage(commandSpec, command(), e);
    }

    /**
     * Run by a person: {@code --workload list} lists the workloads found; {@code --print-scenario} prints the scenario
     * as YAML; otherwise it runs, a stop signal ending it with what it measured and {@code --metrics-port} serving its
     * figures.
     */
    @Override
    public Integer call() throws Exception {
        WorkloadOptions workloads = workloadOptions();
        PrintWriter out = commandSpec.commandLine().getOut();
        if (workloads != null && workloads.listing()) {
            try {
                WorkloadCatalog.load(workloads.jars).print(out);
            } catch (ScenarioException e) {
                throw usage(e);
            }
            return ExitCodes.OK;
        }
        Scenario s = scenario();
        if (common.printScenario) {
            out.print(ScenarioFiles.yaml(s));
            out.flush();
            return ExitCodes.OK;
        }
        try (StandAlone alone = StandAlone.open(s, System.err)) {
            return alone.exitStatus(runAlone(s, alone));
        }
    }
}
