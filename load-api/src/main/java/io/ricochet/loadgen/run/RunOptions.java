package io.ricochet.loadgen.run;

import io.ricochet.loadgen.engine.RunHooks;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * How a run reports: the command's name, the servers' metrics URLs to scrape (empty or null: none), the report
 * directory (may be null), where progress lines go (null: quiet), the settings for config.json, and the hooks of a
 * worker run ({@link RunHooks#NONE} stand-alone).
 */
public record RunOptions(String command, List<URI> scrape, Path reportDir, PrintStream progress, Map<String, Object> config,
        RunHooks hooks) {

    public RunOptions {
        scrape = scrape == null ? List.of() : List.copyOf(scrape);
        config = config == null ? Map.of() : config;
        hooks = hooks == null ? RunHooks.NONE : hooks;
    }

    /** These options with {@code more} settings for config.json before their own. */
    public RunOptions withConfigFirst(Map<String, Object> more) {
        Map<String, Object> all = new java.util.LinkedHashMap<>(more);
        all.putAll(config);
        return new RunOptions(command, scrape, reportDir, progress, all, hooks);
    }

    public RunOptions(String command, List<URI> scrape, Path reportDir, PrintStream progress, Map<String, Object> config) {
        this(command, scrape, reportDir, progress, config, RunHooks.NONE);
    }
}
