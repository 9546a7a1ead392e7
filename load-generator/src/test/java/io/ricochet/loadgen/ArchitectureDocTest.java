package io.ricochet.loadgen;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * docs/architecture.md's package tables against the code: the framework's lists every package of
 * {@code framework/src/main/java/io/ricochet}, the load generator's every package of the three load modules under
 * {@code io/ricochet/loadgen}, once each, and neither names a package that is not there. A package added, moved or
 * removed without its row fails here.
 */
class ArchitectureDocTest {
    private static final Path ROOT = Path.of("..");
    private static final Pattern ROW = Pattern.compile("^\\| `([a-z0-9.]+)`( \\([a-z-]+\\))? \\|");

    @Test
    void theFrameworksTableListsEveryPackageOnce() throws IOException {
        assertEquals(packages(List.of("framework"), "io/ricochet"), rows("Framework packages:"));
    }

    @Test
    void theLoadModulesTableListsEveryPackageOnce() throws IOException {
        assertEquals(packages(List.of("load-api", "load-kubernetes", "load-generator"), "io/ricochet/loadgen"),
                rows("Packages of the load modules"));
    }

    /** The packages holding main classes of {@code modules}, below {@code base}, dotted ({@code report.threshold}). */
    private static List<String> packages(List<String> modules, String base) throws IOException {
        Set<String> found = new TreeSet<>();
        for (String module : modules) {
            Path root = ROOT.resolve(module).resolve("src/main/java").resolve(base);
            try (Stream<Path> files = Files.walk(root)) {
                files.filter(f -> f.toString().endsWith(".java"))
                        .map(f -> root.relativize(f.getParent()).toString().replace('/', '.'))
                        .filter(p -> !p.isEmpty())
                        .forEach(found::add);
            }
        }
        return new ArrayList<>(found);
    }

    /** The package names in the first column of the table after the line starting {@code heading}, sorted. */
    private static List<String> rows(String heading) throws IOException {
        List<String> lines = Files.readAllLines(ROOT.resolve("docs/architecture.md"));
        int at = 0;
        while (at < lines.size() && !lines.get(at).startsWith(heading)) {
            at++;
        }
        if (at == lines.size()) {
            throw new AssertionError("docs/architecture.md has no line starting \"" + heading + "\"");
        }
        while (!lines.get(at).startsWith("|")) {
            at++;
        }
        List<String> names = new ArrayList<>();
        for (; at < lines.size() && lines.get(at).startsWith("|"); at++) {
            Matcher row = ROW.matcher(lines.get(at));
            if (row.find()) {
                names.add(row.group(1));
            }
        }
        return names.stream().sorted().collect(Collectors.toList());
    }
}
