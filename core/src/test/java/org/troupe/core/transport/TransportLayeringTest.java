package org.troupe.core.transport;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The transport SPI stands apart from the runtime: a second transport (shared memory, say) is written against
 * {@code transport} and {@code spi} alone, and the runtime reaches transports only through them.
 */
class TransportLayeringTest {
    private static final JavaClasses CORE = new ClassFileImporter()
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .importPackages("org.troupe.core");

    @Test
    void theTransportPackagesImportNothingOfTheRuntime() {
        noClasses().that().resideInAnyPackage("org.troupe.core.transport..")
            .should().dependOnClassesThat().resideInAnyPackage("org.troupe.core", "org.troupe.core.internal..",
                "org.troupe.core.remote..", "org.troupe.core.proxy..", "org.troupe.core.service..")
            .check(CORE);
    }

    @Test
    void theSpiImportsNoTransport() {
        noClasses().that().resideInAnyPackage("org.troupe.core.spi..")
            .should().dependOnClassesThat().resideInAnyPackage("org.troupe.core.transport..")
            .check(CORE);
    }
}
