package dev.schemabrain.docs;

import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

import javax.xml.parsers.DocumentBuilderFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The build file as a reader of the build's log meets it: a licence declared (and the file beside it), every
 * plugin at a pinned version, and every execution with a name of its own rather than "(default)".
 */
class BuildFileTest {

    private static Document pom() throws Exception {
        return DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(Path.of("pom.xml").toFile());
    }

    @Test
    void theLicenceIsDeclaredAndShipped() throws Exception {
        NodeList licences = pom().getElementsByTagName("license");
        assertEquals(1, licences.getLength(), "pom.xml declares one <license>");
        assertEquals("Apache-2.0", ((Element) licences.item(0)).getElementsByTagName("name").item(0).getTextContent());
        assertTrue(Files.readString(Path.of("LICENSE")).contains("Apache License"), "LICENSE is the Apache-2.0 text");
        assertTrue(Files.exists(Path.of("NOTICE")), "NOTICE lists the bundled libraries");
    }

    @Test
    void everyPluginIsPinnedAndEveryExecutionNamed() throws Exception {
        List<String> problems = new ArrayList<>();
        NodeList plugins = pom().getElementsByTagName("plugin");
        for (int i = 0; i < plugins.getLength(); i++) {
            Element plugin = (Element) plugins.item(i);
            String artifact = plugin.getElementsByTagName("artifactId").item(0).getTextContent();
            if (plugin.getElementsByTagName("version").getLength() == 0) {
                problems.add(artifact + " has no <version>");
            }
            NodeList executions = plugin.getElementsByTagName("execution");
            for (int j = 0; j < executions.getLength(); j++) {
                if (((Element) executions.item(j)).getElementsByTagName("id").getLength() == 0) {
                    problems.add(artifact + " has an execution without an <id> (the log shows it as \"default\")");
                }
            }
        }
        assertTrue(problems.isEmpty(), String.join("\n", problems));
    }
}
