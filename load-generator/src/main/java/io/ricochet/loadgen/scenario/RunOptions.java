package io.ricochet.loadgen.scenario;

import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Path;
import java.util.Map;

/**
 * How a run reports: the command's name, where to scrape the server (may be null), the report
 * directory (may be null), where progress lines go (null: quiet), and the settings for config.json.
 */
public record RunOptions(String command, URI scrape, Path reportDir, PrintStream progress, Map<String, Object> config) {
}
