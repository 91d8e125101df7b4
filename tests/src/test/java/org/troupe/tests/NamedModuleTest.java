package org.troupe.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Troupe on a real module path, used by an application in a named module: the module is compiled here, then run with
 * {@code java --module-path ... -m}, and starts a node JVM on the module path too. It makes local and remote active
 * objects of its own classes (proxies defined by the core, serializers by serialization, its package opened to both
 * as the README says), calls them through a group, and passes an object of a package it keeps closed, which must
 * fail with a message naming the {@code opens} to add. Service providers (the TCP transport, the groups' wire
 * classes, the SLF4J binding) are found through {@code provides}.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class NamedModuleTest {
    private static final String MODULE_INFO = """
        module troupe.example {
            requires org.troupe.groups;
            opens troupe.example to org.troupe.core, org.troupe.serialization;
        }
        """;

    private static final String POINT = """
        package troupe.example;
        public record Point(int x, int y, String label) { }
        """;

    /** A class with a no-argument constructor, private fields and a chain (a last self-typed field). */
    private static final String TALLY = """
        package troupe.example;
        public class Tally {
            private long sum;
            private int[] history = new int[0];
            private Tally previous;
            public Tally() { }
            Tally(long sum, int[] history, Tally previous) { this.sum = sum; this.history = history; this.previous = previous; }
            public long sum() { return sum; }
            public int depth() { return previous == null ? 1 : 1 + previous.depth(); }
            public int last() { return history.length == 0 ? -1 : history[history.length - 1]; }
        }
        """;

    /** A class without a no-argument constructor, with a final field. */
    private static final String LABEL = """
        package troupe.example;
        public class Label {
            private final String text;
            public Label(String text) { this.text = text; }
            public String text() { return text; }
        }
        """;

    private static final String COUNTER = """
        package troupe.example;
        public class Counter {
            private long sum;
            private int calls;
            private Tally tally;
            public Counter() { }
            public Counter(Integer start) { sum = start; }
            public void add(Point p) { sum += p.x() + p.y(); calls++; tally = new Tally(sum, new int[] {calls, p.x()}, tally); }
            public Tally tally() { return tally; }
            public Label name(Label l) { return new Label(l.text() + "@" + ProcessHandle.current().pid()); }
            public long pid() { return ProcessHandle.current().pid(); }
            public void keep(Object anything) { }
        }
        """;

    private static final String SECRET = """
        package troupe.example.closed;
        public class Secret {
            private final int value;
            public Secret(int value) { this.value = value; }
        }
        """;

    private static final String MAIN = """
        package troupe.example;

        import java.nio.file.Path;
        import java.time.Duration;
        import java.util.List;
        import org.troupe.core.ActiveObjects;
        import org.troupe.core.CoreConfig;
        import org.troupe.core.Node;
        import org.troupe.core.TroupeRuntime;
        import org.troupe.core.spi.WireClasses;
        import org.troupe.groups.Groups;
        import org.troupe.serialization.SerializationConfig;

        public final class Main {
            public static void main(String[] args) throws Exception {
                System.out.println("module " + Main.class.getModule().getName() + ", troupe in "
                    + TroupeRuntime.class.getModule().getName());
                System.out.println("groups' wire classes found: " + WireClasses.addTo(SerializationConfig.defaults())
                    .allowsClassName("org.troupe.groups.internal.GroupAgent"));
                TroupeRuntime rt = TroupeRuntime.start(CoreConfig.builder().secret(args[0])
                    .serialization(SerializationConfig.builder().allowPackage("troupe.example").build()).build());
                Process nodeJvm = null;
                try {
                    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
                    ProcessBuilder pb = new ProcessBuilder(java, "--sun-misc-unsafe-memory-access=allow",
                        "--module-path", System.getProperty("jdk.module.path"), "--add-modules", "troupe.example",
                        "-m", "org.troupe.core/org.troupe.core.NodeMain", "--parent", rt.listen(), "--name", "n1");
                    pb.environment().put("TROUPE_CORE_SECRET", args[0]);
                    pb.environment().put("TROUPE_SERIALIZATION_ALLOWEDPACKAGES", "troupe.example");
                    nodeJvm = pb.redirectErrorStream(true).redirectOutput(Path.of(args[1]).toFile()).start();
                    Node n1 = rt.awaitNode("n1", Duration.ofSeconds(60));

                    Counter local = ActiveObjects.newActive(Counter.class, new Object[] {10});
                    Counter remote = ActiveObjects.newActive(Counter.class, new Object[] {100}, n1);
                    for (Counter c : List.of(local, remote)) {
                        c.add(new Point(1, 2, "a"));
                        c.add(new Point(3, 4, "b"));
                    }
                    Counter both = Groups.of(Counter.class, local, remote);
                    Tally tallies = both.tally(); // a result group: its members are the two futures
                    for (Tally t : Groups.view(tallies)) {
                        System.out.println("tally " + t.sum() + " depth " + t.depth() + " last " + t.last());
                    }
                    System.out.println("remote in another JVM: " + (remote.pid() != ProcessHandle.current().pid()));
                    System.out.println("label " + remote.name(new Label("x")).text().startsWith("x@"));
                    try {
                        local.keep(new troupe.example.closed.Secret(7));
                        System.out.println("closed package: no failure");
                    } catch (RuntimeException e) {
                        System.out.println("closed package: " + e.getClass().getName() + ": " + e.getMessage());
                    }
                } finally {
                    rt.shutdown();
                    if (nodeJvm != null) {
                        nodeJvm.destroyForcibly();
                    }
                }
                System.out.println("done");
            }
        }
        """;

    @Test
    void shouldRunAnApplicationInANamedModuleOnTheModulePath(@TempDir final Path dir) throws Exception {
        final String modulePath =
                Files.readString(Path.of("target", "module-path.txt")).strip();
        final Path src = dir.resolve("src");
        final List<String> files = new ArrayList<>();
        for (final Map.Entry<String, String> e : Map.of(
                        "module-info.java",
                        MODULE_INFO,
                        "troupe/example/Point.java",
                        POINT,
                        "troupe/example/Tally.java",
                        TALLY,
                        "troupe/example/Label.java",
                        LABEL,
                        "troupe/example/Counter.java",
                        COUNTER,
                        "troupe/example/Main.java",
                        MAIN,
                        "troupe/example/closed/Secret.java",
                        SECRET)
                .entrySet()) {
            final Path f = src.resolve(e.getKey());
            Files.createDirectories(f.getParent());
            Files.writeString(f, e.getValue());
            files.add(f.toString());
        }
        final Path classes = dir.resolve("classes");
        final ByteArrayOutputStream javac = new ByteArrayOutputStream();
        final List<String> javacArgs = new ArrayList<>(List.of("-d", classes.toString(), "--module-path", modulePath));
        javacArgs.addAll(files);
        final int compiled =
                ToolProvider.getSystemJavaCompiler().run(null, javac, javac, javacArgs.toArray(String[]::new));
        assertEquals(0, compiled, javac.toString(StandardCharsets.UTF_8));

        final Path nodeLog = dir.resolve("node.log");
        final String java =
                Path.of(System.getProperty("java.home"), "bin", "java").toString();
        final Process app = new ProcessBuilder(
                        java,
                        "--sun-misc-unsafe-memory-access=allow",
                        "--module-path",
                        classes + File.pathSeparator + modulePath,
                        "-m",
                        "troupe.example/troupe.example.Main",
                        "named-module-test-secret-0123456789",
                        nodeLog.toString())
                .redirectErrorStream(true)
                .start();
        final String out;
        try {
            out = new String(app.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(app.waitFor(120, TimeUnit.SECONDS), "the application ends");
        } finally {
            app.destroyForcibly();
        }
        final String all = out + "\n--- node JVM ---\n" + readIfThere(nodeLog);
        assertEquals(0, app.exitValue(), all);
        assertTrue(out.contains("module troupe.example, troupe in org.troupe.core"), all);
        assertTrue(out.contains("groups' wire classes found: true"), all);
        assertTrue(out.contains("tally 20 depth 2 last 3"), all);
        assertTrue(out.contains("tally 110 depth 2 last 3"), all);
        assertTrue(out.contains("remote in another JVM: true"), all);
        assertTrue(out.contains("label true"), all);
        assertTrue(
                out.contains("closed package: org.troupe.serialization.SerializationException: module "
                        + "troupe.example does not open package troupe.example.closed to org.troupe.serialization"),
                all);
        assertTrue(out.contains("add 'opens troupe.example.closed to org.troupe.serialization;'"), all);
        assertTrue(out.contains("done"), all);
    }

    private static String readIfThere(final Path p) throws IOException {
        return Files.exists(p) ? Files.readString(p) : "(no log)";
    }
}
