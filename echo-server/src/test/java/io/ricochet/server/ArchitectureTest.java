package io.ricochet.server;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/** The echo server builds on the framework's API only. */
class ArchitectureTest {
    @Test
    void nothingOfTheFrameworksInternals() {
        noClasses().should().dependOnClassesThat().resideInAPackage("io.ricochet.internal..")
                .because("the framework's internal package is not API")
                .check(new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                        .importPackages("io.ricochet.server"));
    }
}
