package io.ricochet.loadgen.report.html;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.loadgen.report.ReportWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HtmlReportTest {

    @Test
    void aDirectoryWithoutASummaryIsRefusedByName(@TempDir Path dir) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> HtmlReport.write(dir));
        assertTrue(e.getMessage().contains(dir.toString()) && e.getMessage().contains("summary.json"), e.getMessage());
    }

    /**
     * A run's text (a server's reply in an error message, a worker's metadata, a directory's name) can neither end the
     * script element its data sits in, nor open a comment or a script inside it, nor be taken for one of the template's
     * placeholders.
     */
    @Test
    void noTextOfTheRunCanBreakThePage(@TempDir Path parent) throws Exception {
        Path dir = Files.createDirectory(parent.resolve("run-<b>&\""));
        String hostile = "</script><b>x <!--<script> </SCRIPT > \u2028\u2029 & /*PAGE_JS*/ >";
        Files.writeString(dir.resolve("summary.json"), ReportWriter.JSON.writeValueAsString(
                Map.of("command", "echo", "first_error", hostile, "worker", Map.of("jvm_args", hostile))));
        String page = Files.readString(HtmlReport.write(dir));
        String data = page.substring(page.indexOf("<script type=\"application/json\" id=\"data\">"));
        data = data.substring(data.indexOf('>') + 1, data.indexOf("</script>"));
        for (String dangerous : List.of("<", ">", "&", "\u2028", "\u2029")) {
            assertFalse(data.contains(dangerous), "no " + dangerous + " in the inlined data");
        }
        assertEquals(5, page.split("</script>", -1).length - 1, "the page's own five script elements, no more");
        assertEquals(hostile, ReportWriter.JSON.readTree(data).get("summary").get("first_error").asText(),
                "the text is kept, and reads back the same");
        assertTrue(page.contains("<title>Ricochet report: run-&lt;b&gt;&amp;&quot;</title>"), "the title is text");
    }

    /** uPlot comes from the webjar pinned in the parent POM, inlined: the page needs no network. */
    @Test
    void uPlotIsInlined(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("summary.json"), "{\"command\":\"echo\"}");
        String page = Files.readString(HtmlReport.write(dir));
        assertTrue(page.contains("var uPlot=function()"), "uPlot's script is in the page");
        assertFalse(page.contains("/*UPLOT_JS*/") || page.contains("/*DATA*/"), "every placeholder is filled");
        assertFalse(page.contains("src=\"http") || page.contains("href=\"http"), "nothing is fetched");
    }
}
