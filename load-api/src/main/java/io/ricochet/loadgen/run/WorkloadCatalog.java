package io.ricochet.loadgen.run;

import io.ricochet.loadgen.scenario.ScenarioException;
import io.ricochet.loadgen.scenario.ScenarioException.Key;
import io.ricochet.loadgen.workload.Workload;
import io.ricochet.loadgen.workload.WorkloadParameters;
import io.ricochet.loadgen.workload.WorkloadProvider;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.MalformedURLException;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.jar.JarFile;

/**
 * The workloads the generator can run by name: every {@link WorkloadProvider} on its own class path, in the jars given
 * with {@code --workload-jar}, and in the {@value #DIRECTORY}/ directory beside load-generator.jar (where an image
 * built {@code FROM} Ricochet's adds them). Each jar is loaded on a class loader whose parent is the generator's, so its
 * workloads see the generator's API, framework and libraries. Every problem is a {@link ScenarioException} of one line
 * naming the key ({@code workload.jars}, the command line's {@code --workload-jar}), found before any connection.
 *
 * <pre>{@code
 * WorkloadCatalog catalog = WorkloadCatalog.load(List.of(Path.of("my-workloads.jar")));
 * FrameWorkload kv = catalog.create("kv-text", Map.of("keys", "100"), FrameWorkload.class, "a framed workload");
 * }</pre>
 */
public final class WorkloadCatalog {
    /** The directory beside load-generator.jar whose jars are always searched. */
    public static final String DIRECTORY = "workloads";
    private static final String NAME = "workload.name";
    private static final String JARS = "workload.jars";
    private static final String PARAMS = "workload.params";

    private final Map<String, WorkloadProvider> providers;
    private final Map<String, String> origins;

    private WorkloadCatalog(Map<String, WorkloadProvider> providers, Map<String, String> origins) {
        this.providers = providers;
        this.origins = origins;
    }

    /** Loads the providers of {@code jars} and of the workloads directory; a bad jar is a usage error. */
    public static WorkloadCatalog load(List<Path> jars) {
        // Each jar once, by its real path: one given with --workload-jar may also lie in the workloads directory.
        java.util.Set<Path> all = new java.util.LinkedHashSet<>();
        for (Path jar : jars) {
            all.add(realPath(checkedJar(jar)));
        }
        for (Path jar : directoryJars()) {
            all.add(realPath(jar));
        }
        Map<String, WorkloadProvider> providers = new LinkedHashMap<>();
        Map<String, String> origins = new LinkedHashMap<>();
        try {
            // Providers on the class path itself: a user who runs the generator with their classes beside it.
            for (WorkloadProvider provider : ServiceLoader.load(WorkloadProvider.class,
                    WorkloadCatalog.class.getClassLoader())) {
                providers.putIfAbsent(provider.name(), provider);
                origins.putIfAbsent(provider.name(), "class path");
            }
        } catch (ServiceConfigurationError | LinkageError e) {
            throw new ScenarioException(NAME, Key.of(NAME), ": cannot load a workload provider on the class path: "
                    + oneLine(e));
        }
        for (Path jar : all) {
            URLClassLoader loader;
            try {
                loader = new URLClassLoader(new URL[] {jar.toUri().toURL()}, WorkloadCatalog.class.getClassLoader());
            } catch (MalformedURLException e) {
                throw new ScenarioException(JARS, Key.of(JARS), " " + jar + ": " + e.getMessage());
            }
            // Only the providers this jar lists itself: the parent's, and other jars', are found through their own.
            Iterator<ServiceLoader.Provider<WorkloadProvider>> found = ServiceLoader.load(WorkloadProvider.class, loader)
                    .stream().iterator();
            try {
                while (found.hasNext()) {
                    ServiceLoader.Provider<WorkloadProvider> p = found.next();
                    if (p.type().getClassLoader() != loader) {
                        continue;
                    }
                    WorkloadProvider provider = p.get();
                    String name = provider.name();
                    if (providers.containsKey(name)) {
                        throw new ScenarioException(JARS, Key.of(JARS), " " + jar + ": a second workload named "
                                + name + " (the first is in " + origins.get(name) + ")");
                    }
                    providers.put(name, provider);
                    origins.put(name, jar.getFileName().toString());
                }
            } catch (ServiceConfigurationError | LinkageError e) {
                throw new ScenarioException(JARS, Key.of(JARS), " " + jar + ": cannot load a workload provider: "
                        + oneLine(e));
            }
        }
        return new WorkloadCatalog(providers, origins);
    }

    /** A jar the user named: it must exist and be a zip. */
    private static Path checkedJar(Path jar) {
        if (!Files.isRegularFile(jar)) {
            throw new ScenarioException(JARS, Key.of(JARS), " " + jar + ": no such file");
        }
        try (JarFile ignored = new JarFile(jar.toFile())) {
            return jar.toAbsolutePath();
        } catch (IOException | SecurityException e) {
            throw new ScenarioException(JARS, Key.of(JARS), " " + jar + ": not a jar (" + oneLine(e) + ")");
        }
    }

    private static Path realPath(Path jar) {
        try {
            return jar.toRealPath();
        } catch (IOException e) {
            return jar.toAbsolutePath().normalize();
        }
    }

    /** The jars in the workloads directory beside the running load-generator.jar; none when run from classes. */
    public static List<Path> directoryJars() {
        Path dir = directory();
        if (dir == null || !Files.isDirectory(dir)) {
            return List.of();
        }
        List<Path> jars = new ArrayList<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir, "*.jar")) {
            entries.forEach(jars::add);
        } catch (IOException e) {
            return List.of();
        }
        jars.sort(null);
        return jars;
    }

    /** {@value #DIRECTORY}/ beside load-generator.jar, or null when the generator does not run from a jar. */
    public static Path directory() {
        try {
            Path code = Path.of(WorkloadCatalog.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            return Files.isRegularFile(code) ? code.resolveSibling(DIRECTORY) : null;
        } catch (URISyntaxException | RuntimeException e) {
            return null;
        }
    }

    /**
     * The workload {@code name} made with {@code parameters}, of {@code kind}; a name no jar provides, a parameter it
     * refuses or does not take, or a workload of the other kind is a usage error.
     */
    public <W extends Workload> W create(String name, Map<String, String> parameters, Class<W> kind,
            String kindName) {
        WorkloadProvider provider = providers.get(name);
        if (provider == null) {
            throw providers.isEmpty()
                    ? new ScenarioException(NAME, Key.of(NAME), " " + name + ": no workload jar provides it (none found: "
                            + "give its jar with ", Key.of(JARS), ")")
                    : new ScenarioException(NAME, Key.of(NAME), " " + name + ": no workload jar provides it (found: "
                            + String.join(", ", providers.keySet()) + ")");
        }
        WorkloadParameters given = WorkloadParameters.of(parameters);
        Workload workload;
        try {
            workload = provider.create(given);
        } catch (IllegalArgumentException e) {
            throw new ScenarioException(PARAMS, Key.of(PARAMS), " " + e.getMessage());
        } catch (RuntimeException | LinkageError e) {
            throw new ScenarioException(NAME, Key.of(NAME), " " + name + ": the workload failed to start: "
                    + oneLine(e));
        }
        if (!given.unread().isEmpty()) {
            // A misspelt key is the common case: the ones it takes say which was meant.
            throw new ScenarioException(PARAMS, Key.of(PARAMS), " " + given.unread().iterator().next() + ": " + name
                    + " does not take it (expected: " + (given.asked().isEmpty() ? "none; it takes no parameters"
                            : "one of " + String.join(", ", given.asked())) + ")");
        }
        if (!kind.isInstance(workload)) {
            throw new ScenarioException(NAME, Key.of(NAME), " " + name + ": a " + describe(workload) + " (expected: "
                    + kindName + ")");
        }
        return kind.cast(workload);
    }

    private static String describe(Workload w) {
        return w instanceof io.ricochet.loadgen.workload.RpcWorkload ? "RPC workload"
                : w instanceof io.ricochet.loadgen.workload.FrameWorkload ? "framed workload"
                : w == null ? "null workload" : w.getClass().getName();
    }

    /** {@code --workload list}: every workload found, with its jar and description. */
    public void print(PrintWriter out) {
        if (providers.isEmpty()) {
            out.println("no workloads found (give jars with --workload-jar, or put them in " + (directory() == null
                    ? "the workloads/ directory beside load-generator.jar" : directory()) + ")");
        }
        providers.forEach((name, p) -> out.println(name + "  (" + origins.get(name) + ")"
                + (p.description().isEmpty() ? "" : "  " + p.description())));
        out.flush();
    }

    private static String oneLine(Throwable e) {
        String m = e.getMessage() == null ? e.toString() : e.getClass().getSimpleName() + ": " + e.getMessage();
        return m.replaceAll("\\s+", " ").trim();
    }
}
