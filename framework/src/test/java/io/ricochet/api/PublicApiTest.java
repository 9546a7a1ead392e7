package io.ricochet.api;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The library's public surface: every public type carries javadoc, and the reference code (the echo
 * handler, the benchmark methods) stays out of it.
 */
class PublicApiTest {
    private static final Path SOURCES = Path.of("src/main/java");
    private static final Pattern PUBLIC_TYPE = Pattern.compile(
            "(?m)^public\\s+(?:final\\s+|abstract\\s+|sealed\\s+)*(?:class|interface|record|enum|@interface)\\s+\\w+");

    @Test
    void everyPublicTypeHasJavadoc() throws IOException {
        List<String> undocumented;
        try (Stream<Path> files = Files.walk(SOURCES)) {
            undocumented = files.filter(f -> f.toString().endsWith(".java")).filter(PublicApiTest::publicTypeUndocumented)
                    .map(f -> SOURCES.relativize(f).toString()).sorted().toList();
        }
        assertEquals(List.of(), undocumented);
    }

    private static boolean publicTypeUndocumented(Path file) {
        String source;
        try {
            source = Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Matcher m = PUBLIC_TYPE.matcher(source);
        if (!m.find()) {
            return false;
        }
        // What stands before the declaration, annotations aside, must be the end of a javadoc comment.
        String before = source.substring(0, m.start()).replaceAll("(?m)^@\\w+(\\([^)]*\\))?\\s*$", "").stripTrailing();
        return !before.endsWith("*/") || before.lastIndexOf("/**") < before.lastIndexOf("/*");
    }

    @Test
    void theReferenceCodeIsNotInTheLibrary() {
        assertEquals(false, Files.exists(SOURCES.resolve("io/ricochet/echo")));
        assertEquals(false, Files.exists(Path.of("src/main/proto/ricochet_bench.proto")));
    }
}
