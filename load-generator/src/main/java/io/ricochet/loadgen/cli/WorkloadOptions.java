package io.ricochet.loadgen.cli;

import io.ricochet.loadgen.scenario.Scenario;
import io.ricochet.loadgen.scenario.WorkloadSettings;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import picocli.CommandLine.Option;

/** A workload from a jar: which jars, which workload, and its parameters. Shared by every command that runs workloads. */
final class WorkloadOptions {
    @Option(names = "--workload-jar", paramLabel = "FILE",
            description = "A jar of workloads (WorkloadProvider services), repeatable. Jars in the workloads/ directory "
                    + "beside load-generator.jar are always searched.")
    List<Path> jars = new ArrayList<>();

    @Option(names = "--workload", paramLabel = "NAME",
            description = "The workload to run, by its provider's name; 'list' prints the ones found and exits.")
    String name;

    @Option(names = "--workload-param", paramLabel = "KEY=VALUE",
            description = "A parameter of the workload, repeatable, e.g. --workload-param keys=1000.")
    Map<String, String> parameters = new LinkedHashMap<>();

    /** Whether {@code --workload list} asks for the workloads found instead of a run. */
    boolean listing() {
        return "list".equals(name);
    }

    /** Sets on {@code b}'s workload what the flags among these that were {@code given} say. */
    void applyTo(Scenario.Builder b, Predicate<String> given) {
        WorkloadSettings w = b.workload();
        b.workload(new WorkloadSettings(given.test("--workload") ? name : w.name(),
                given.test("--workload-jar") ? jars : w.jars(), given.test("--workload-param") ? parameters : w.params(),
                w.payload(), w.expect(), w.size(), w.proto(), w.method(), w.requestType(), w.responseType(), w.data(),
                w.expectStatus()));
    }
}
