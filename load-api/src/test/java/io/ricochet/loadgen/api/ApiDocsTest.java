package io.ricochet.loadgen.api;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every public top-level type of the packages a user builds against (the workload API, {@code LoadTest}, the scenario and the
 * thresholds, which the javadoc jar publishes) has a javadoc comment with an example in it, a {@code <pre>} block, as
 * the framework's public types do.
 */
class ApiDocsTest {
    static final List<String> API_PACKAGES = List.of("workload", "api", "scenario", "report/threshold");
    private static final Path SOURCES = Path.of("src/main/java/io/ricochet/loadgen");
    private static final Pattern PUBLIC_TYPE = Pattern.compile(
            "^public (?:final |abstract |sealed )*(?:class|interface|record|enum|@interface) ", Pattern.MULTILINE);

    @Test
    void everyPublicTopLevelTypeOfTheApiHasAnExample() throws IOException {
        List<String> missing = new ArrayList<>();
        for (String pkg : API_PACKAGES) {
            try (Stream<Path> files = Files.list(SOURCES.resolve(pkg))) {
                for (Path file : files.filter(f -> f.toString().endsWith(".java")).sorted().toList()) {
                    String source = Files.readString(file);
                    Matcher type = PUBLIC_TYPE.matcher(source);
                    if (!type.find()) {
                        continue;
                    }
                    int docStart = source.lastIndexOf("/**", type.start());
                    String doc = docStart < 0 ? "" : source.substring(docStart, type.start());
                    if (!doc.contains("<pre>")) {
                        missing.add(pkg + "/" + file.getFileName());
                    }
                }
            }
        }
        assertEquals(List.of(), missing, "public API types without an example in their javadoc");
    }
}
