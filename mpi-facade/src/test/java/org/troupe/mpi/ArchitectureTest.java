package org.troupe.mpi;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.library.dependencies.Slices;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;

/**
 * The package rules of the MPI facade: the mpiJava binding ({@code mpi}) is a layer over the fabric and its
 * algorithms ({@code org.troupe.mpi.fabric..}), which know nothing of it, and no packages reach each other in a
 * circle.
 */
class ArchitectureTest {
    private static final JavaClasses CLASSES = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("mpi", "org.troupe.mpi");
    /** Each package a slice of its own. */
    private static final String PACKAGE = "(**)";

    @Test
    void theFacadesPackagesFormNoCycle() {
        // One slice per package (mpi, fabric, fabric.coll, run), not one for all, which could hold no cycle.
        final long packages = StreamSupport.stream(
                        Slices.matching(PACKAGE).transform(CLASSES).spliterator(), false)
                .count();
        assertTrue(packages >= 4, packages + " packages");
        slices().matching(PACKAGE).should().beFreeOfCycles().check(CLASSES);
    }

    @Test
    void theFabricAndItsAlgorithmsUseNothingOfTheMpiBinding() {
        noClasses()
                .that()
                .resideInAPackage("org.troupe.mpi.fabric..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("mpi")
                .check(CLASSES);
    }
}
