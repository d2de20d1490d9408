package dev.schemabrain.docs;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.ZipFile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * NOTICE names exactly the libraries the packaged jar bundles (the list the build generates from their POMs,
 * target/licences/THIRD-PARTY.txt), each with a licence, and the jar carries SchemaBrain's licence and that list.
 */
class ThirdPartyNoticeIT {

    private static final Pattern GENERATED = Pattern.compile("\\(([^\\s:()]+):([^\\s:()]+):[^\\s]+ - ");
    private static final Pattern LISTED = Pattern.compile("^([\\w.\\-]+:[\\w.\\-]+)\\s+([A-Z].*)$");

    @Test
    void noticeListsEveryBundledLibraryWithItsLicence() throws Exception {
        Set<String> bundled = new TreeSet<>();
        for (String line : Files.readAllLines(Path.of("target", "licences", "THIRD-PARTY.txt"))) {
            Matcher m = GENERATED.matcher(line);
            if (m.find()) {
                bundled.add(m.group(1) + ":" + m.group(2));
            }
        }
        assertTrue(bundled.size() > 10, "the generated list is nearly empty: " + bundled);
        Set<String> listed = new TreeSet<>();
        for (String line : Files.readAllLines(Path.of("NOTICE"))) {
            Matcher m = LISTED.matcher(line);
            if (m.matches()) {
                listed.add(m.group(1));
                assertTrue(m.group(2).matches("[A-Z][\\w.\\-]*(-[\\w.]+)*( OR [A-Z][\\w.\\-]*)*( \\(.*\\))?"),
                        "NOTICE gives " + m.group(1) + " no SPDX licence: " + m.group(2));
            }
        }
        assertEquals(bundled, listed, "NOTICE must list exactly the libraries the jar bundles (see docs/licences.md)");
    }

    @Test
    void theJarCarriesTheLicenceAndTheList() throws Exception {
        Path jar = Path.of(System.getProperty("schemabrain.jar", "target/schemabrain.jar"));
        try (ZipFile zip = new ZipFile(jar.toFile())) {
            assertNotNull(zip.getEntry("META-INF/THIRD-PARTY-NOTICE"), "the jar has no META-INF/THIRD-PARTY-NOTICE");
            var licence = zip.getEntry("META-INF/LICENSE");
            assertNotNull(licence, "the jar has no META-INF/LICENSE");
            String text = new String(zip.getInputStream(licence).readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(text.contains("Apache License") && text.contains("Version 2.0"), "META-INF/LICENSE is not Apache-2.0");
            assertEquals(null, zip.getEntry("module-info.class"), "a library's module descriptor is in the fat jar");
        }
        String version = System.getProperty("schemabrain.version", "0.1.0");
        try (ZipFile release = new ZipFile(Path.of("target", "schemabrain-" + version + ".zip").toFile())) {
            for (String file : new String[] {"LICENSE", "NOTICE", "docs/licences.md"}) {
                assertNotNull(release.getEntry("schemabrain-" + version + "/" + file), "the release archive has no " + file);
            }
        }
    }
}
