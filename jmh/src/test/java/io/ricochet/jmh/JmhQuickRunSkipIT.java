package io.ricochet.jmh;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/**
 * {@code mvn -B -ntp -DskipTests package} runs no JMH: Maven itself is asked for this module's effective POM as a
 * build with {@code -DskipTests} (or {@code -Dmaven.test.skip=true}) sees it, and every exec-maven-plugin execution,
 * the quick run among them, must be skipped. Without either flag the quick run is not skipped, so the check can tell
 * the two apart. Maven's help plugin writes the effective POM in a second or two; nothing is built or run.
 */
@Timeout(300)
class JmhQuickRunSkipIT {
    /** The help plugin, named with its version so that it resolves offline once it is in the local repository. */
    private static final String EFFECTIVE_POM = "org.apache.maven.plugins:maven-help-plugin:3.5.1:effective-pom";

    @TempDir
    Path dir;

    @Test
    void skipTestsSkipsTheQuickRun() throws Exception {
        Map<String, Boolean> runs = execRuns("-DskipTests");
        assertTrue(runs.containsKey("jmh-quick"), "the quick run is an exec-maven-plugin execution: " + runs);
        runs.forEach((id, skipped) -> assertTrue(skipped, "-DskipTests: exec execution " + id + " not skipped"));
    }

    @Test
    void skippingTestCompilationSkipsTheQuickRun() throws Exception {
        Map<String, Boolean> runs = execRuns("-Dmaven.test.skip=true");
        assertTrue(runs.containsKey("jmh-quick"), runs.toString());
        runs.forEach((id, skipped) -> assertTrue(skipped, "-Dmaven.test.skip=true: exec execution " + id + " not skipped"));
    }

    @Test
    void aBuildWithItsTestsRunsTheQuickRun() throws Exception {
        assertFalse(execRuns("-Dricochet.no.flag=true").get("jmh-quick"), "the quick run is skipped without -DskipTests");
    }

    /**
     * Each exec-maven-plugin execution of the effective POM with {@code flag}: whether it is skipped. Offline first,
     * so that a machine without the network answers from its local repository; online if that lacks the help plugin.
     */
    private Map<String, Boolean> execRuns(String flag) throws Exception {
        Path out = dir.resolve("effective-pom.xml");
        List<String> command = new ArrayList<>(List.of(mvn(), "-B", "-ntp", "-q", "-f",
                System.getProperty("ricochet.jmh.pom", "pom.xml"), flag, EFFECTIVE_POM, "-Doutput=" + out));
        String repo = System.getProperty("ricochet.maven.repo");
        if (repo != null && !repo.isBlank()) {
            command.add("-Dmaven.repo.local=" + repo);
        }
        List<String> offline = new ArrayList<>(command);
        offline.add("-o");
        String failed = run(offline);
        if (failed != null) {
            failed = run(command);
        }
        assertNull(failed, failed);
        return execExecutions(out);
    }

    /** Runs {@code command}: null if it succeeded, else what it said. */
    private String run(List<String> command) throws Exception {
        Path log = dir.resolve("mvn.log");
        Process mvn = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        if (!mvn.waitFor(120, TimeUnit.SECONDS)) {
            mvn.destroyForcibly().waitFor();
            return command + " did not finish: " + Files.readString(log, StandardCharsets.UTF_8);
        }
        return mvn.exitValue() == 0 ? null
                : command + " exit " + mvn.exitValue() + ": " + Files.readString(log, StandardCharsets.UTF_8);
    }

    private static String mvn() {
        String home = System.getProperty("ricochet.maven.home");
        if (home != null && !home.isBlank()) {
            File mvn = new File(home, "bin/mvn");
            if (mvn.canExecute()) {
                return mvn.getPath();
            }
        }
        return "mvn";
    }

    /** Each execution of exec-maven-plugin in an effective POM, by id: whether its configuration says skip. */
    static Map<String, Boolean> execExecutions(Path effectivePom) throws IOException {
        Document pom;
        try {
            DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            pom = factory.newDocumentBuilder().parse(effectivePom.toFile());
        } catch (Exception e) {
            throw new IOException(effectivePom + ": " + e.getMessage(), e);
        }
        Map<String, Boolean> runs = new TreeMap<>();
        NodeList plugins = pom.getElementsByTagName("plugin");
        for (int i = 0; i < plugins.getLength(); i++) {
            Element plugin = (Element) plugins.item(i);
            // Only the build's plugins: pluginManagement's are templates, not executions.
            if (!"exec-maven-plugin".equals(child(plugin, "artifactId"))
                    || !"plugins".equals(plugin.getParentNode().getNodeName())
                    || !"build".equals(plugin.getParentNode().getParentNode().getNodeName())) {
                continue;
            }
            NodeList executions = plugin.getElementsByTagName("execution");
            for (int j = 0; j < executions.getLength(); j++) {
                Element execution = (Element) executions.item(j);
                Element configuration = childElement(execution, "configuration");
                String skip = configuration == null ? null : child(configuration, "skip");
                runs.put(child(execution, "id"), Boolean.parseBoolean(skip));
            }
        }
        return runs;
    }

    private static String child(Element parent, String name) {
        Element child = childElement(parent, name);
        return child == null ? null : child.getTextContent().trim();
    }

    private static Element childElement(Element parent, String name) {
        for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element e && e.getTagName().equals(name)) {
                return e;
            }
        }
        return null;
    }
}
