package io.ricochet.loadgen.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.testing.BuiltJars;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Test;

/**
 * The load API's javadoc jar, as {@code mvn package} built it: the packages a workload's author and a JUnit user build
 * against are in it, and the tool's own (the engine, the controller, the report files) are not.
 */
class JavadocJarIT {

    @Test
    void documentsTheApiAndLeavesTheToolsPackagesOut() throws IOException {
        Path jar = BuiltJars.one("-javadoc.jar");
        try (ZipFile zip = new ZipFile(jar.toFile())) {
            List<String> names = zip.stream().map(ZipEntry::getName).toList();
            for (String page : List.of("io/ricochet/loadgen/api/LoadTest.html", "io/ricochet/loadgen/api/LoadResult.html",
                    "io/ricochet/loadgen/workload/FrameWorkload.html", "io/ricochet/loadgen/workload/RpcWorkload.html",
                    "io/ricochet/loadgen/scenario/Scenario.html", "io/ricochet/loadgen/report/threshold/Threshold.html")) {
                assertTrue(names.contains(page), page + " missing from " + jar);
            }
            // Exactly the API's packages: the tool's own, and the generated wire messages, are not API.
            String elements = new String(zip.getInputStream(zip.getEntry("element-list")).readAllBytes(), StandardCharsets.UTF_8);
            assertEquals(List.of("io.ricochet.loadgen.api", "io.ricochet.loadgen.report.threshold",
                    "io.ricochet.loadgen.scenario", "io.ricochet.loadgen.workload"),
                    elements.lines().filter(l -> !l.isBlank()).sorted().toList());
        }
        Path sources = BuiltJars.one("-sources.jar");
        try (ZipFile zip = new ZipFile(sources.toFile())) {
            assertTrue(zip.getEntry("io/ricochet/loadgen/workload/FrameWorkload.java") != null, "sources of " + sources);
        }
    }
}
