package io.ricochet.loadgen.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.commandline.ExitCodes;
import java.net.URI;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** --scrape takes several servers; the controller's --scrape-selector finds them in Kubernetes. Parsed only. */
class ScrapeOptionsTest {

    @Test
    void scrapeTakesSeveralUrlsCommaSeparatedAndRepeated() {
        CommonOptions common = ((ScenarioCommand) LoadGeneratorMain.newCommandLine().parseArgs("echo",
                "--scrape", "http://a:9100/metrics,https://b:9100/metrics", "--scrape", "http://c:9100/metrics")
                .subcommand().commandSpec().userObject()).common();
        assertEquals(List.of(URI.create("http://a:9100/metrics"), URI.create("https://b:9100/metrics"),
                URI.create("http://c:9100/metrics")), common.scrape);
    }

    @Test
    void withoutScrapeTheListIsEmpty() {
        CommonOptions common = ((ScenarioCommand) LoadGeneratorMain.newCommandLine().parseArgs("echo")
                .subcommand().commandSpec().userObject()).common();
        assertEquals(List.of(), common.scrape);
    }

    @Test
    void aBadUrlInTheListIsAUsageErrorNamingTheFlagAndTheValue() {
        Cli.Result r = Cli.run("echo", "--scrape", "http://a:9100/metrics,ftp://b/metrics", "--duration", "1s");
        assertEquals(ExitCodes.USAGE, r.exit(), r.out());
        assertTrue(r.err().contains("--scrape") && r.err().contains("'ftp://b/metrics' (expected: an http:// or https:// URL"),
                r.err());
    }

    @Test
    void theScrapeSelectorIsLabelsWithPortAndPathDefaults() {
        ControllerCommand controller = (ControllerCommand) LoadGeneratorMain.newCommandLine().parseArgs("controller",
                "--workers", "2", "--executor", "kubernetes",
                "--scrape-selector", "app.kubernetes.io/name=ricochet,app.kubernetes.io/component=echo-server",
                "echo", "--target", "echo-server:7000").subcommand().commandSpec().userObject();
        assertEquals(Map.of("app.kubernetes.io/name", "ricochet", "app.kubernetes.io/component", "echo-server"),
                controller.kubernetes.scrapeSelector);
        assertEquals(9100, controller.kubernetes.scrapePort);
        assertEquals("/metrics", controller.kubernetes.scrapePath);
    }

    @Test
    void theScrapeSelectorNeedsTheKubernetesExecutor() {
        Cli.Result r = Cli.run("controller", "--workers", "1", "--scrape-selector", "app=echo", "echo", "--duration", "1s");
        assertEquals(ExitCodes.USAGE, r.exit(), r.out());
        assertTrue(r.err().contains("scrape-selector: app=echo (expected: with --executor kubernetes"), r.err());
    }

    @Test
    void aScrapeSelectorThatIsNoLabelIsAUsageErrorNamingTheFlag() {
        Cli.Result r = Cli.run("controller", "--workers", "1", "--executor", "kubernetes", "--scrape-selector", "echo",
                "echo", "--target", "127.0.0.1:1");
        assertEquals(ExitCodes.USAGE, r.exit(), r.out());
        assertTrue(r.err().contains("--scrape-selector"), r.err());
    }
}
