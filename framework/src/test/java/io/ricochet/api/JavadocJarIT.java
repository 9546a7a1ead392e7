package io.ricochet.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.testing.BuiltJars;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Test;

/**
 * The published javadoc jar, as `mvn package` built it: the API packages are in it, at the top, and the
 * internal package is not. Excluding it once did nothing: javadoc ran in module mode, which ignores
 * the exclusion.
 */
class JavadocJarIT {

    @Test
    void documentsTheApiAndLeavesTheInternalPackageOut() throws IOException {
        Path jar = BuiltJars.one("-javadoc.jar");
        try (ZipFile zip = new ZipFile(jar.toFile())) {
            List<String> names = zip.stream().map(ZipEntry::getName).toList();
            for (String page : List.of("io/ricochet/transport/server/RicochetServer.html", "io/ricochet/rpc/RpcService.html",
                    "io/ricochet/tls/Tls.html", "io/ricochet/codec/FrameDecoder.html")) {
                assertTrue(names.contains(page), page + " missing from " + jar);
            }
            // Anywhere in the jar: javadoc in module mode nests the packages under the module's name.
            List<String> internal = names.stream().filter(n -> n.contains("io/ricochet/internal/")).toList();
            assertEquals(List.of(), internal, "the internal package is not API");
        }
    }
}
