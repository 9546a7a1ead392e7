package io.ricochet.loadgen.report.html;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HtmlReportTest {

    @Test
    void aDirectoryWithoutASummaryIsRefusedByName(@TempDir Path dir) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> HtmlReport.write(dir));
        assertTrue(e.getMessage().contains(dir.toString()) && e.getMessage().contains("summary.json"), e.getMessage());
    }

    /** A run's text (an error message, a host name) cannot end the script element its data sits in. */
    @Test
    void theDataCannotCloseItsScriptElement(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("summary.json"), "{\"command\":\"echo\",\"first_error\":\"</script><b>x\"}");
        String page = Files.readString(HtmlReport.write(dir));
        assertEquals(5, page.split("</script>", -1).length - 1, "the page's own five script elements, no more");
        assertTrue(page.contains("<\\/script><b>x"), "the text is kept, escaped");
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
