package org.troupe.tests.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** 10,000 active objects in one JVM whose heap is capped at 1 GB, each serving a request. */
class ManyActiveObjectsTest {
    private static final int OBJECTS = 10_000;

    @Test
    void shouldServeTenThousandActiveObjectsInAOneGigabyteHeap() throws Exception {
        final Process p = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-Xmx1g",
                        "-Dtroupe.serialization.allowedPackages=org.troupe.tests",
                        "-cp",
                        System.getProperty("java.class.path"),
                        ManyActiveObjects.class.getName(),
                        String.valueOf(OBJECTS))
                .redirectErrorStream(true)
                .start();
        try {
            final String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(p.waitFor(120, TimeUnit.SECONDS), "the JVM did not end");
            assertEquals(0, p.exitValue(), output);
            final Matcher m = Pattern.compile("served (\\d+) alive (\\d+) heapUsedMb (\\d+) maxHeapMb (\\d+)")
                    .matcher(output);
            assertTrue(m.find(), output);
            assertEquals(OBJECTS, Integer.parseInt(m.group(1)));
            assertEquals(OBJECTS, Integer.parseInt(m.group(2)), "all objects alive while measured");
            assertTrue(Integer.parseInt(m.group(4)) <= 1024, "the heap cap applies: " + output);
        } finally {
            p.destroyForcibly();
        }
    }
}
