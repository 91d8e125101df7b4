package org.troupe.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.lang.module.FindException;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReference;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The layering of DESIGN.md, read from the module descriptors the build made: dependencies point downwards only
 * ({@code apps -> mpi-facade -> groups -> core -> serialization}, {@code deployment -> monitor -> core},
 * {@code apps -> deployment}), nothing in the core knows groups, MPI or XML, and no module exports its machinery.
 */
class ModuleLayeringTest {
    /** The Troupe modules each Troupe module may require: what DESIGN.md's arrows reach, directly or not. */
    private static final Map<String, Set<String>> ARROWS = Map.of(
            "org.troupe.serialization", Set.of(),
            "org.troupe.core", Set.of("org.troupe.serialization"),
            "org.troupe.groups", Set.of("org.troupe.core"),
            // the console and Prometheus endpoint: knows the core's metrics, not what deployed the run
            "org.troupe.monitor", Set.of("org.troupe.core"),
            "org.troupe.deploy", Set.of("org.troupe.monitor"),
            "org.troupe.descriptors", Set.of(),
            // mpi-facade holds mpjrun, which deploys ranks by a descriptor ("ranks as JVMs, local or deployed").
            "org.troupe.mpi", Set.of("org.troupe.groups", "org.troupe.deploy"),
            "org.troupe.apps.jem3d", Set.of("org.troupe.mpi", "org.troupe.groups", "org.troupe.deploy"),
            "org.troupe.apps.nozzle", Set.of("org.troupe.mpi", "org.troupe.deploy"),
            // the one dependency of an application: everything above, no code of its own
            "org.troupe.all", Set.of("org.troupe.mpi", "org.troupe.groups", "org.troupe.deploy"));

    /** Modules the core and serialization must not require: XML and its binding. */
    private static final List<String> NOT_IN_CORE = List.of("java.xml", "jakarta.xml", "org.glassfish", "com.sun.xml");

    /** Package name parts no module exports to everyone. */
    private static final Set<String> MACHINERY = Set.of("internal", "proxy", "remote", "transport", "tcp", "launch");

    private static Map<String, ModuleDescriptor> troupe;

    /** The descriptors of the Troupe modules on this test's class path (their jars, or target/classes in a reactor). */
    @BeforeAll
    static void readDescriptors() {
        troupe = new TreeMap<>();
        for (final String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            final Path p = Path.of(entry);
            if (!Files.isRegularFile(p) && !Files.isRegularFile(p.resolve("module-info.class"))) {
                continue; // a directory of classes without a descriptor (this module's own)
            }
            try {
                for (final ModuleReference ref : ModuleFinder.of(p).findAll()) {
                    final ModuleDescriptor d = ref.descriptor();
                    if (d.name().startsWith("org.troupe.") && !d.isAutomatic()) {
                        troupe.put(d.name(), d);
                    }
                }
            } catch (FindException e) {
                // not a module Troupe cares about (a jar whose automatic name is invalid, say)
            }
        }
    }

    @Test
    void shouldFindADescriptorForEveryModule() {
        assertEquals(
                new TreeSet<>(ARROWS.keySet()),
                troupe.keySet(),
                "every Troupe module has a module-info, and only these are Troupe modules; the class path was "
                        + System.getProperty("java.class.path"));
    }

    @Test
    void shouldOnlyRequireModulesBelow() {
        final List<String> wrong = new ArrayList<>();
        for (final ModuleDescriptor d : troupe.values()) {
            final Set<String> allowed = below(d.name());
            for (final ModuleDescriptor.Requires r : d.requires()) {
                if (r.name().startsWith("org.troupe.") && !allowed.contains(r.name())) {
                    wrong.add(d.name() + " requires " + r.name() + " (it may require " + allowed + ")");
                }
            }
        }
        assertTrue(wrong.isEmpty(), "dependencies must point downwards (DESIGN.md): " + wrong);
    }

    @Test
    void shouldKeepXmlOutOfTheCore() {
        final List<String> wrong = new ArrayList<>();
        for (final String name : List.of("org.troupe.serialization", "org.troupe.core")) {
            for (final ModuleDescriptor.Requires r : troupe.get(name).requires()) {
                if (NOT_IN_CORE.stream().anyMatch(r.name()::startsWith)) {
                    wrong.add(name + " requires " + r.name());
                }
            }
        }
        assertTrue(wrong.isEmpty(), "nothing in the core knows XML (DESIGN.md): " + wrong);
    }

    @Test
    void shouldExportNoMachinery() {
        final List<String> wrong = new ArrayList<>();
        for (final ModuleDescriptor d : troupe.values()) {
            for (final ModuleDescriptor.Exports e : d.exports()) {
                final Set<String> parts = Set.of(e.source().split("\\."));
                if (!e.isQualified() && parts.stream().anyMatch(MACHINERY::contains)) {
                    wrong.add(d.name() + " exports " + e.source());
                }
            }
        }
        assertTrue(wrong.isEmpty(), "machinery is exported to no one, or to the modules that need it: " + wrong);
        assertEquals(
                Set.of(
                        "org.troupe.core",
                        "org.troupe.core.exceptions",
                        "org.troupe.core.metrics",
                        "org.troupe.core.service",
                        "org.troupe.core.spi"),
                troupe.get("org.troupe.core").exports().stream()
                        .filter(e -> !e.isQualified())
                        .map(ModuleDescriptor.Exports::source)
                        .collect(Collectors.toSet()),
                "the core exports its application API, its metrics and the layers' spi, nothing else");
    }

    /** Every Troupe module {@code name} reaches by DESIGN.md's arrows. */
    private static Set<String> below(final String name) {
        final Set<String> reached = new LinkedHashSet<>();
        final List<String> todo = new ArrayList<>(ARROWS.getOrDefault(name, Set.of()));
        while (!todo.isEmpty()) {
            final String next = todo.removeLast();
            if (reached.add(next)) {
                todo.addAll(ARROWS.getOrDefault(next, Set.of()));
            }
        }
        return reached;
    }
}
