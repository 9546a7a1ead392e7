package io.ricochet.loadgen;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The load generator's layers, as docs/architecture.md draws them: the workload API stands on nothing of the
 * generator's; the engine on the workload API and the statistics only (no report, scrape or command line); no
 * package cycle; and nothing from the framework's internal package.
 */
class ArchitectureTest {
    private static JavaClasses classes;

    @BeforeAll
    static void importClasses() {
        // The other load modules' test-jars are on this class path too: their tests are not the layers either.
        classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .withImportOption(location -> !location.contains("-tests.jar"))
                .importPackages("io.ricochet.loadgen");
    }

    @Test
    void theWorkloadApiStandsOnNothingOfTheGenerators() {
        noClasses().that().resideInAPackage("io.ricochet.loadgen.workload..").should().dependOnClassesThat(
                JavaClass.Predicates.resideInAPackage("io.ricochet.loadgen..")
                        .and(JavaClass.Predicates.resideOutsideOfPackage("io.ricochet.loadgen.workload..")))
                .because("users build against it alone").check(classes);
    }

    @Test
    void theEngineKnowsNoReportScrapeOrCommandLine() {
        noClasses().that().resideInAPackage("io.ricochet.loadgen.engine..").should().dependOnClassesThat()
                .resideInAnyPackage("io.ricochet.loadgen.report..", "io.ricochet.loadgen.scrape..",
                        "io.ricochet.loadgen.run..", "io.ricochet.loadgen.cli..", "io.ricochet.loadgen.distributed..",
                        "io.ricochet.loadgen.api..", "io.ricochet.loadgen.payload..", "io.ricochet.loadgen.protobuf..",
                        "io.ricochet.loadgen.rpc..", "io.ricochet.loadgen.plan..", "io.ricochet.loadgen.metrics..")
                .check(classes);
    }

    @Test
    void noPackageCycles() {
        slices().matching("io.ricochet.loadgen.(*)..").should().beFreeOfCycles().check(classes);
    }

    @Test
    void nothingOfTheFrameworksInternals() {
        noClasses().should().dependOnClassesThat().resideInAPackage("io.ricochet.internal..")
                .because("the framework's internal package is not API").check(classes);
    }
}
