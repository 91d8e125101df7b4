package org.troupe.bench;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;

/** The flags of benchmark JVMs that this JVM starts (JMH forks, quick-mode case JVMs, node and mpjrun JVMs). */
public final class JvmFlags {
    /** Module access flags of this JVM that children need too, e.g. {@code --add-opens} that bin/bench gives. */
    private static final List<String> INHERITED_FLAGS = List.of(
            "--add-opens",
            "--add-exports",
            "--add-modules",
            "--enable-native-access",
            "--sun-misc-unsafe-memory-access",
            "-Dtroupe.home"); // where bin/bench runs from: the deploy suite reads descriptors/ there

    private JvmFlags() {}

    /**
     * Heap, stack and pre-touch for a JVM that measures, followed by the inherited module flags. Deep graphs are
     * recursed (16 MB stacks); large arrays need room. Without the pre-touch an op that allocates much is billed
     * for the first touch of each new heap page: on the virtual machines we run on, that made a 64 KB
     * {@code clone()} cost 200 us instead of 3 us.
     */
    public static List<String> forMeasuringJvm(final String initialHeap) {
        final List<String> flags =
                new ArrayList<>(List.of("-Xss16m", "-Xms" + initialHeap, "-Xmx4g", "-XX:+AlwaysPreTouch"));
        flags.addAll(inherited());
        return flags;
    }

    /**
     * The flags of this JVM that a JVM it starts needs too: bin/bench's, so that no fork prints the JDK's warnings
     * about Netty's memory access or native access.
     */
    public static List<String> inherited() {
        final List<String> flags = new ArrayList<>();
        final List<String> input = ManagementFactory.getRuntimeMXBean().getInputArguments();
        for (int i = 0; i < input.size(); i++) {
            final String arg = input.get(i);
            final String name = arg.contains("=") ? arg.substring(0, arg.indexOf('=')) : arg;
            if (!INHERITED_FLAGS.contains(name)) {
                continue;
            }
            flags.add(arg);
            if (name.equals(arg) && i + 1 < input.size()) {
                // The two-word form (--add-opens java.base/java.lang=ALL-UNNAMED): the value is the next argument.
                flags.add(input.get(++i));
            }
        }
        return flags;
    }
}
