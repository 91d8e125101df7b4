package org.troupe.core;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The arrows between the core's packages point one way: the API ({@code org.troupe.core}) may use any package;
 * {@code remote} uses internal, proxy, spi and transport; internal uses proxy and spi; proxy uses spi; transport
 * (and its implementations) uses spi; spi uses only the leaf packages ({@code exceptions}, {@code service}).
 * Checked on the compiled main classes.
 */
class ArchitectureTest {
    private static final String CORE = "org.troupe.core";
    private static JavaClasses classes;

    @BeforeAll
    static void importCore() {
        classes = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages(CORE);
    }

    /** One slice per package of the core, the API package (the root) among them, sub-packages apart. */
    private static final SliceAssignment PACKAGES = new SliceAssignment() {
        @Override
        public SliceIdentifier getIdentifierOf(final JavaClass javaClass) {
            final String p = javaClass.getPackageName();
            if (p.equals(CORE)) {
                return SliceIdentifier.of("api");
            }
            return p.startsWith(CORE + ".")
                    ? SliceIdentifier.of(p.substring(CORE.length() + 1))
                    : SliceIdentifier.ignore();
        }

        @Override
        public String getDescription() {
            return "the packages of " + CORE + ", the root being the API";
        }
    };

    @Test
    void theCoresPackagesFormNoCycle() {
        slices().assignedFrom(PACKAGES).should().beFreeOfCycles().check(classes);
    }

    @Test
    void theApiPackageIsASliceOfItsOwnAndSubPackagesAreApart() {
        assertEquals(SliceIdentifier.of("api"), PACKAGES.getIdentifierOf(classes.get(TroupeRuntime.class)));
        assertEquals(
                SliceIdentifier.of("transport.tcp"),
                PACKAGES.getIdentifierOf(classes.get(CORE + ".transport.tcp.TcpTransport")));
    }

    @Test
    void spiUsesOnlyTheLeafPackages() {
        noClasses()
                .that()
                .resideInAPackage(CORE + ".spi..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        CORE, CORE + ".internal..", CORE + ".remote..", CORE + ".proxy..", CORE + ".transport..")
                .check(classes);
    }

    @Test
    void internalUsesNeitherRemoteNorTransportNorTheApi() {
        noClasses()
                .that()
                .resideInAPackage(CORE + ".internal..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(CORE, CORE + ".remote..", CORE + ".transport..")
                .check(classes);
    }

    @Test
    void proxyUsesOnlySpiAndTheLeafPackages() {
        noClasses()
                .that()
                .resideInAPackage(CORE + ".proxy..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(CORE, CORE + ".internal..", CORE + ".remote..", CORE + ".transport..")
                .check(classes);
    }

    @Test
    void theLeafPackagesUseNoOtherPackageOfTheCore() {
        noClasses()
                .that()
                .resideInAnyPackage(CORE + ".exceptions..", CORE + ".service..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        CORE,
                        CORE + ".internal..",
                        CORE + ".remote..",
                        CORE + ".proxy..",
                        CORE + ".spi..",
                        CORE + ".transport..")
                .check(classes);
    }

    /**
     * A transport (TCP, or a second one such as shared memory) is written against {@code transport} and {@code spi}
     * alone, and the runtime reaches transports only through them.
     */
    @Test
    void transportUsesOnlySpi() {
        noClasses()
                .that()
                .resideInAPackage(CORE + ".transport..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        CORE,
                        CORE + ".internal..",
                        CORE + ".remote..",
                        CORE + ".proxy..",
                        CORE + ".service..",
                        CORE + ".exceptions..")
                .check(classes);
    }
}
