package io.ricochet.loadgen.cli;

import io.ricochet.loadgen.workload.Workload;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/** A workload from a jar: which jars, which workload, and its parameters. Shared by every command that runs workloads. */
final class WorkloadOptions {
    @Shard(Shard.Rule.ABSOLUTE_FILE)
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

    boolean given() {
        return name != null;
    }

    /** What config.json says of the workload: its name, jars and parameters. */
    void describeInto(Map<String, Object> d) {
        d.put("name", name);
        d.put("jars", jars.stream().map(Object::toString).toList());
        d.put("parameters", parameters);
    }

    /** The named workload from the jars, which must be a {@code type}; {@code wanted} says which kind runs here. */
    <W extends Workload> W create(CommandLine cli, Class<W> type, String wanted) {
        return WorkloadCatalog.load(cli, jars).create(cli, name, parameters, type, wanted);
    }
}
