# The image the k8s/ manifests run (ricochet/ricochet:0.1.0): both jars on a JRE 17.
# Build the jars first, then the image (no Docker engine runs on the development machine; see docs/kubernetes.md):
#   mvn -B -ntp -DskipTests package && docker build -t ricochet/ricochet:0.1.0 .
FROM eclipse-temurin:17-jre
COPY echo-server/target/echo-server.jar /app/echo-server.jar
COPY load-generator/target/load-generator.jar /app/load-generator.jar
# The workers' Job sets only args, so the load generator is the default entrypoint.
ENTRYPOINT ["java", "-XX:+UseParallelGC", "-XX:MaxRAMPercentage=75", "-jar", "/app/load-generator.jar"]
