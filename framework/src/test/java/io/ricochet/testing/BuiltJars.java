package io.ricochet.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/** The jars {@code mvn package} built into a module's {@code target/}, for the *IT checks of what is published. */
public final class BuiltJars {
    private BuiltJars() {
    }

    /** The one jar in this module's {@code target/} whose name ends with {@code suffix} ({@code -javadoc.jar}). */
    public static Path one(String suffix) throws IOException {
        try (Stream<Path> target = Files.list(Path.of("target"))) {
            List<Path> jars = target.filter(p -> p.getFileName().toString().endsWith(suffix)).toList();
            assertEquals(1, jars.size(), "*" + suffix + " in target: " + jars);
            return jars.get(0);
        }
    }
}
