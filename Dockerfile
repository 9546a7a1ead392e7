# The image the k8s/ manifests run (ricochet/ricochet:0.1.0): both jars on a JRE 17, run as a user that is not root.
# Build the jars first, then the image (where no registry is reachable, docker/stand-in-base.sh first starts an engine
# and makes a stand-in for the base from Debian's packages; see docs/kubernetes.md):
#   mvn -B -ntp -DskipTests package && DOCKER_BUILDKIT=1 docker build --network host -t ricochet/ricochet:0.1.0 .
# COPY --chmod needs BuildKit, Docker's builder since 23.0 (and podman's/buildah's).
FROM eclipse-temurin:17-jre
# Readable by every user and writable by none, whatever mode the build machine's umask gave the jars; /app itself is
# made root's, 0755.
COPY --chmod=0444 echo-server/target/echo-server.jar /app/echo-server.jar
COPY --chmod=0444 load-generator/target/load-generator.jar /app/load-generator.jar
# Netty's native libraries (epoll, io_uring, BoringSSL, QUIC), unpacked by the build: read-only, on java.library.path,
# where Netty looks before it would extract a copy to /tmp. So /tmp need not be executable (Docker's --tmpfs is noexec,
# as are many hardened nodes' mounts), and nothing native is written at run time.
COPY --chmod=0555 load-generator/target/native/ /app/native/
# Application class-data archives of both jars, /app/cds/echo-server.jsa and load-generator.jsa, written by a short
# training run here, as root, read-only after (docker/cds-training.sh says what they save and why they are made here).
RUN --mount=type=bind,source=docker/cds-training.sh,target=/tmp/cds-training.sh sh /tmp/cds-training.sh
# A fixed user and group that are not root, by number so that the kubelet can check runAsNonRoot against it. It owns
# nothing in the image and needs no home: it writes only to the volumes the pods mount (/tmp, and /report for the
# controller). The manifests and the workers' Job name the same numbers (runAsUser, runAsGroup, fsGroup; a test keeps
# them equal).
USER 10001:10001
# The load generator is the default entrypoint: the controller's Job sets only args. The workers' Job names this same
# command (JobFactory.WORKER_COMMAND; a test keeps the two equal). Memory (docs/kubernetes.md): the heap may take 40% of
# the container's limit, and direct memory, which the JVM caps at the heap's maximum when -XX:MaxDirectMemorySize is not
# given, 40% more, which leaves 20% for metaspace, code, thread stacks and native libraries, which load from /app/native.
# The JVM's own temporary files go to /tmp, which the pods mount as an emptyDir (their root filesystem is read-only).
# The classes come from the archive the build made (above); a JVM that cannot use it starts without it. The JVM's own
# warnings go to stderr, not into the stdout that --json and the summary own.
ENTRYPOINT ["java", "-XX:+UseParallelGC", "-XX:MaxRAMPercentage=40", "-Djava.library.path=/app/native", "-XX:SharedArchiveFile=/app/cds/load-generator.jsa", "-Xlog:disable", "-Xlog:all=warning:stderr", "-jar", "/app/load-generator.jar"]
