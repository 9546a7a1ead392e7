package io.ricochet;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The framework's packages, as docs/architecture.md draws them: no package cycle, and dependencies only downward:
 * rpc above transport, transport above codec and handler, config beneath them all; within the transport, the server
 * and the client above the session, the session above the transport's base, and neither server nor client knowing
 * the other.
 */
class ArchitectureTest {
    private static JavaClasses classes;

    @BeforeAll
    static void importClasses() {
        classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.ricochet");
    }

    @Test
    void noPackageCycles() {
        slices().matching("io.ricochet.(*)..").should().beFreeOfCycles().check(classes);
    }

    @Test
    void noPackageCyclesAtAnyDepth() {
        slices().matching("io.ricochet.(**)").should().beFreeOfCycles().check(classes);
    }

    @Test
    void theSessionKnowsNeitherServerNorClient() {
        noClasses().that().resideInAPackage("io.ricochet.transport.session..").should().dependOnClassesThat()
                .resideInAnyPackage("io.ricochet.transport.server..", "io.ricochet.transport.client..").check(classes);
    }

    @Test
    void theServerAndTheClientKnowNothingOfEachOther() {
        noClasses().that().resideInAPackage("io.ricochet.transport.server..").should().dependOnClassesThat()
                .resideInAPackage("io.ricochet.transport.client..").check(classes);
        noClasses().that().resideInAPackage("io.ricochet.transport.client..").should().dependOnClassesThat()
                .resideInAPackage("io.ricochet.transport.server..").check(classes);
    }

    @Test
    void theTransportsBaseStandsOnNoneOfItsParts() {
        noClasses().that().resideInAPackage("io.ricochet.transport").should().dependOnClassesThat()
                .resideInAnyPackage("io.ricochet.transport.session..", "io.ricochet.transport.server..",
                        "io.ricochet.transport.client..").check(classes);
    }

    @Test
    void theTransportKnowsNothingOfRpc() {
        noClasses().that().resideInAPackage("io.ricochet.transport..").should().dependOnClassesThat()
                .resideInAPackage("io.ricochet.rpc..").check(classes);
    }

    @Test
    void theCodecAndHandlersKnowNothingOfTheTransportOrRpc() {
        noClasses().that().resideInAnyPackage("io.ricochet.codec..", "io.ricochet.handler..").should()
                .dependOnClassesThat().resideInAnyPackage("io.ricochet.transport..", "io.ricochet.rpc..")
                .check(classes);
    }

    @Test
    void configStandsOnNothingOfTheFrameworks() {
        noClasses().that().resideInAPackage("io.ricochet.config..").should().dependOnClassesThat()
                .resideInAnyPackage("io.ricochet.codec..", "io.ricochet.handler..", "io.ricochet.transport..",
                        "io.ricochet.rpc..", "io.ricochet.metrics..", "io.ricochet.tls..", "io.ricochet.noise..",
                        "io.ricochet.internal..")
                .check(classes);
    }
}
