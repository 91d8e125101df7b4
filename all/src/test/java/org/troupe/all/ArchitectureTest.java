package org.troupe.all;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.core.importer.Location;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.module.FindException;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReference;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.jar.JarFile;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The module arrows of DESIGN.md, checked on the classes themselves ({@code ModuleLayeringTest} in tests/ checks the
 * module descriptors): {@code mpi-facade -> groups -> core -> serialization}, {@code deployment -> monitor -> core},
 * {@code mpi-facade -> deployment} (mpjrun deploys ranks by a descriptor); and no module above the core uses a package
 * the module it reads does not export to it.
 */
class ArchitectureTest {
    /** The Troupe module of each package, and where the modules' classes are (jars or directories). */
    private static final Map<String, ModuleDescriptor> MODULES = new HashMap<>();

    private static final List<Path> LOCATIONS = new ArrayList<>();

    private static JavaClasses troupe;

    @BeforeAll
    static void importTroupe() {
        findTroupeModules();
        troupe = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importLocations(
                        LOCATIONS.stream().map(ArchitectureTest::location).collect(Collectors.toSet()));
    }

    @Test
    void shouldPointModuleDependenciesDownwardsOnly() {
        layeredArchitecture()
                .consideringOnlyDependenciesInLayers()
                .layer("serialization")
                .definedBy("org.troupe.serialization..")
                .layer("core")
                .definedBy("org.troupe.core..")
                .layer("groups")
                .definedBy("org.troupe.groups..")
                .layer("monitor")
                .definedBy("org.troupe.monitor..")
                .layer("deployment")
                .definedBy("org.troupe.deploy..")
                .layer("mpi")
                .definedBy("mpi..", "org.troupe.mpi..")
                .whereLayer("mpi")
                .mayNotBeAccessedByAnyLayer()
                .whereLayer("groups")
                .mayOnlyBeAccessedByLayers("mpi")
                .whereLayer("deployment")
                .mayOnlyBeAccessedByLayers("mpi")
                .whereLayer("monitor")
                .mayOnlyBeAccessedByLayers("deployment", "mpi")
                .whereLayer("core")
                .mayOnlyBeAccessedByLayers("groups", "monitor", "deployment", "mpi")
                .whereLayer("serialization")
                .mayOnlyBeAccessedByLayers("core", "groups", "monitor", "deployment", "mpi")
                .check(troupe);
    }

    @Test
    void shouldUseOnlyWhatTheModulesBelowExport() {
        noClasses().should(useAPackageItsModuleDoesNotExportToThem()).check(troupe);
    }

    @Test
    void shouldFindEveryModuleAndItsExports() {
        assertTrue(troupe.size() > 300, "imported " + troupe.size() + " classes");
        assertEquals("org.troupe.core", MODULES.get("org.troupe.core.internal").name());
        assertEquals("org.troupe.mpi", MODULES.get("mpi").name());
        assertFalse(exported(MODULES.get("org.troupe.core.internal"), "org.troupe.core.internal", "org.troupe.groups"));
        assertTrue(exported(MODULES.get("org.troupe.core.spi"), "org.troupe.core.spi", "org.troupe.groups"));
    }

    @Test
    void shouldKeepDeploymentFreeOfPackageCycles() {
        slices().assignedFrom(packagesUnder("org.troupe.deploy"))
                .should()
                .beFreeOfCycles()
                .check(troupe);
    }

    /** Each package under {@code prefix} (itself included) a slice of its own; classes elsewhere ignored. */
    static SliceAssignment packagesUnder(final String prefix) {
        return new SliceAssignment() {
            @Override
            public SliceIdentifier getIdentifierOf(final JavaClass type) {
                final String pkg = type.getPackageName();
                return pkg.equals(prefix) || pkg.startsWith(prefix + ".")
                        ? SliceIdentifier.of(pkg)
                        : SliceIdentifier.ignore();
            }

            @Override
            public String getDescription() {
                return "the packages of " + prefix;
            }
        };
    }

    /** A dependency on a class of another Troupe module whose package that module does not export to the user. */
    private static ArchCondition<JavaClass> useAPackageItsModuleDoesNotExportToThem() {
        return new ArchCondition<>("use a package of another Troupe module that it does not export to them") {
            @Override
            public void check(final JavaClass user, final ConditionEvents events) {
                final ModuleDescriptor from = MODULES.get(user.getPackageName());
                user.getDirectDependenciesFromSelf().forEach(d -> {
                    final String pkg = d.getTargetClass().getPackageName();
                    final ModuleDescriptor to = MODULES.get(pkg);
                    if (from != null && to != null && from != to && !exported(to, pkg, from.name())) {
                        events.add(SimpleConditionEvent.violated(
                                d,
                                d.getDescription() + ": " + to.name() + " does not export " + pkg + " to "
                                        + from.name()));
                    }
                });
            }
        };
    }

    private static boolean exported(final ModuleDescriptor module, final String pkg, final String to) {
        return module.exports().stream()
                .anyMatch(e -> e.source().equals(pkg)
                        && (!e.isQualified() || e.targets().contains(to)));
    }

    private static Location location(final Path path) {
        try {
            return Files.isDirectory(path) ? Location.of(path) : Location.of(new JarFile(path.toFile()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Reads the descriptors of the Troupe modules on this test's class path (their jars, or their classes). */
    private static void findTroupeModules() {
        for (final String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            final Path path = Path.of(entry);
            if (Files.isRegularFile(path) || Files.isRegularFile(path.resolve("module-info.class"))) {
                try {
                    ModuleFinder.of(path).findAll().stream()
                            .map(ModuleReference::descriptor)
                            .filter(d -> d.name().startsWith("org.troupe.") && !d.isAutomatic())
                            .forEach(d -> {
                                LOCATIONS.add(path);
                                d.packages().forEach(p -> MODULES.put(p, d));
                            });
                } catch (FindException e) {
                    // a jar that is no module Troupe cares about
                }
            }
        }
    }
}
