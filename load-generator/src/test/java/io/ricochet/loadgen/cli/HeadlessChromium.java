package io.ricochet.loadgen.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Debian's Chromium, headless, as the report tests drive it: the page's DOM after its scripts ran, and a screenshot.
 * The flags keep it off the network (this machine has none) and out of any profile but a fresh one.
 */
final class HeadlessChromium {
    static final Path BINARY = Path.of("/usr/bin/chromium");
    private static final Pattern ELEMENT = Pattern.compile("<pre id=\"([a-z-]+)\">(.*?)</pre>", Pattern.DOTALL);

    private final Path profile;

    HeadlessChromium(Path profile) {
        if (!Files.isExecutable(BINARY)) {
            throw new AssertionError(BINARY + " is missing: install Debian's chromium (.ci/run does)");
        }
        this.profile = profile;
    }

    /**
     * What the page rendered: the text of its {@code #page-errors}, the charts listed in {@code #chart-check} (each
     * with its axes as drawn), and the whole DOM.
     */
    record Rendered(String errors, JsonNode charts, String dom) {
        JsonNode chart(String id) {
            for (JsonNode c : charts) {
                if (c.get("id").asText().equals(id)) {
                    return c;
                }
            }
            throw new AssertionError("no chart " + id + " in " + charts);
        }

        /** The axis of {@code chart} on {@code side}, uPlot's numbering: 1 right, 2 bottom (x), 3 left. */
        JsonNode axis(String chart, int side) {
            for (JsonNode a : chart(chart).get("axes")) {
                if (a.get("side").asInt() == side) {
                    return a;
                }
            }
            throw new AssertionError("no axis on side " + side + " in " + chart(chart));
        }
    }

    Rendered render(Path page) throws IOException, InterruptedException {
        String dom = run(List.of("--dump-dom", page.toUri().toString()));
        String errors = null;
        String charts = null;
        Matcher m = ELEMENT.matcher(dom);
        while (m.find()) {
            String text = m.group(2).replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"")
                    .replace("&amp;", "&");
            if (m.group(1).equals("page-errors")) {
                errors = text;
            } else if (m.group(1).equals("chart-check")) {
                charts = text;
            }
        }
        if (errors == null || charts == null || charts.isEmpty()) {
            throw new AssertionError("the page did not finish drawing: " + dom.substring(0, Math.min(2000, dom.length())));
        }
        return new Rendered(errors, Cli.JSON.readTree(charts), dom);
    }

    void screenshot(Path page, Path png) throws IOException, InterruptedException {
        shoot(page, png, 2200);
    }

    /**
     * A screenshot of only the page's elements that match {@code keep} (CSS selectors of children of
     * {@code #report}), from a copy of the page beside it that hides the rest.
     */
    void screenshot(Path page, Path png, int height, String... keep) throws IOException, InterruptedException {
        StringBuilder style = new StringBuilder("<style>#report > *");
        for (String selector : keep) {
            style.append(":not(").append(selector).append(')');
        }
        style.append(" { display: none !important; }</style></head>");
        Path copy = page.resolveSibling(png.getFileName().toString().replace(".png", ".html"));
        String html = Files.readString(page, StandardCharsets.UTF_8);
        Files.writeString(copy, html.replaceFirst("</head>", style.toString()), StandardCharsets.UTF_8);
        shoot(copy, png, height);
    }

    private void shoot(Path page, Path png, int height) throws IOException, InterruptedException {
        Files.createDirectories(png.getParent());
        run(List.of("--screenshot=" + png, "--window-size=1280," + height, "--hide-scrollbars",
                page.toUri().toString()));
        if (!Files.isRegularFile(png) || Files.size(png) == 0) {
            throw new AssertionError("no screenshot at " + png);
        }
    }

    private String run(List<String> args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(BINARY.toString(), "--headless", "--no-sandbox", "--disable-gpu",
                "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--user-data-dir=" + profile));
        command.addAll(args);
        Path out = Files.createTempFile(profile.getParent(), "chromium", ".out");
        Process p = new ProcessBuilder(command).redirectErrorStream(false).redirectOutput(out.toFile())
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("chromium did not finish in 60 s: " + command);
        }
        return Files.readString(out, StandardCharsets.UTF_8);
    }
}
