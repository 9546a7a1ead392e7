package io.ricochet.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.internal.OptionalLibrary;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/**
 * The BOM users import keeps Netty, and so the optional natives and QUIC codec they add, and noise-java on the
 * framework's versions: it has no parent, so its copies of the versions are checked against the parent's here.
 */
class BomTest {
    private static final Path PARENT = Path.of("../pom.xml");
    private static final Path BOM = Path.of("../bom/pom.xml");

    @Test
    void theBomImportsNettysBomAtTheFrameworksNettyVersion() throws Exception {
        Document parent = parse(PARENT);
        Document bom = parse(BOM);
        String nettyVersion = property(parent, "netty.version");
        assertEquals(nettyVersion, property(bom, "netty.version"), "bom/pom.xml's netty.version");
        List<String> imports = new ArrayList<>();
        NodeList dependencies = bom.getElementsByTagName("dependency");
        for (int i = 0; i < dependencies.getLength(); i++) {
            Element dependency = (Element) dependencies.item(i);
            if ("import".equals(child(dependency, "scope"))) {
                imports.add(child(dependency, "groupId") + ":" + child(dependency, "artifactId") + ":"
                        + child(dependency, "version"));
            }
        }
        assertEquals(List.of("io.netty:netty-bom:${netty.version}"), imports);
    }

    @Test
    void theBomPinsNoiseJavaAtTheFrameworksVersionAndTheMissingLibraryMessageNamesIt() throws Exception {
        String noiseVersion = property(parse(PARENT), "noise-java.version");
        assertEquals(noiseVersion, property(parse(BOM), "noise-java.version"), "bom/pom.xml's noise-java.version");
        assertTrue(OptionalLibrary.NOISE.missingMessage().contains("org.signal.forks:noise-java " + noiseVersion + " "),
                OptionalLibrary.NOISE.missingMessage());
    }

    /**
     * Every library a user may depend on has its version in the BOM: without ricochet-load-generator there, a
     * version-less dependency on it failed.
     */
    @Test
    void theBomListsEveryLibraryOfTheProject() throws Exception {
        List<String> managed = new ArrayList<>();
        NodeList dependencies = parse(BOM).getElementsByTagName("dependency");
        for (int i = 0; i < dependencies.getLength(); i++) {
            Element dependency = (Element) dependencies.item(i);
            if ("io.ricochet".equals(child(dependency, "groupId"))) {
                managed.add(child(dependency, "artifactId"));
            }
        }
        assertEquals(List.of("ricochet-framework", "ricochet-echo-service", "ricochet-load-api",
                "ricochet-load-generator", "ricochet-load-kubernetes"), managed);
    }

    private static Document parse(Path pom) throws Exception {
        return DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(pom.toFile());
    }

    private static String property(Document pom, String name) {
        NodeList properties = pom.getElementsByTagName("properties");
        return properties.getLength() == 0 ? null : child((Element) properties.item(0), name);
    }

    private static String child(Element parent, String name) {
        for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element e && e.getTagName().equals(name)) {
                return e.getTextContent().trim();
            }
        }
        return null;
    }
}
