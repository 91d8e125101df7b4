package org.troupe.tests.net;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** What the programs these tests start in namespaces say, one {@code @ key value} line a fact. */
final class Facts {
    private Facts() {}

    /** The facts in {@code output}; a key said twice has its last value. */
    static Map<String, String> of(final String output) {
        final Map<String, String> facts = new HashMap<>();
        output.lines().filter(l -> l.startsWith("@ ")).forEach(l -> {
            final String[] kv = l.substring(2).split(" ", 2);
            facts.put(kv[0], kv.length > 1 ? kv[1] : "");
        });
        return facts;
    }

    /** Waits, at most {@code seconds}, for {@code who} ({@code process}, printing to {@code log}) to say {@code key}. */
    static String await(final Process process, final Path log, final String key, final long seconds, final String who)
            throws IOException, InterruptedException {
        final long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (System.nanoTime() < end) {
            final String value = Files.exists(log) ? of(Files.readString(log)).get(key) : null;
            if (value != null) {
                return value;
            }
            if (!process.isAlive()) {
                fail(who + " ended before it said " + key + ":\n" + Files.readString(log));
            }
            Thread.sleep(50);
        }
        fail(who + " did not say " + key + " within " + seconds + " s:\n" + Files.readString(log));
        return null;
    }
}
