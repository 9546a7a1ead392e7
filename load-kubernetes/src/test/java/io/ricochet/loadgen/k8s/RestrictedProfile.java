package io.ricochet.loadgen.k8s;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.Capabilities;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.PodSecurityContext;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.SeccompProfile;
import io.fabric8.kubernetes.api.model.SecurityContext;
import io.fabric8.kubernetes.api.model.Sysctl;
import io.fabric8.kubernetes.api.model.Volume;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * What a pod's spec says against the Pod Security Standards' restricted profile (the baseline's controls included),
 * as a cluster operator reads it (kubernetes.io/docs/concepts/security/pod-security-standards), and what Ricochet's pods
 * add to it: a read-only root filesystem and a memory request and limit on every container, and no API token unless the
 * pod calls the API. Container settings override the pod's, as the kubelet applies them. The AppArmor annotations of
 * older clusters are the pod's metadata, not its spec: none of Ricochet's pods sets one, so none is checked (the
 * appArmorProfile fields are).
 */
public final class RestrictedProfile {
    /** The volume types the restricted profile admits. */
    private static final Set<String> VOLUME_TYPES = Set.of("configMap", "csi", "downwardAPI", "emptyDir", "ephemeral",
            "persistentVolumeClaim", "projected", "secret");
    /** The sysctls the baseline profile admits (Kubernetes' safe set). */
    private static final Set<String> SAFE_SYSCTLS = Set.of("kernel.shm_rmid_forced", "net.ipv4.ip_local_port_range",
            "net.ipv4.ip_unprivileged_port_start", "net.ipv4.tcp_syncookies", "net.ipv4.ping_group_range",
            "net.ipv4.ip_local_reserved_ports", "net.ipv4.tcp_keepalive_time", "net.ipv4.tcp_fin_timeout",
            "net.ipv4.tcp_keepalive_intvl", "net.ipv4.tcp_keepalive_probes");
    private static final Set<String> SECCOMP_TYPES = Set.of("RuntimeDefault", "Localhost");
    private static final ObjectMapper JSON = new ObjectMapper();

    private RestrictedProfile() {
    }

    /**
     * Every way {@code spec} falls short, each naming the pod and container; empty when it meets the profile.
     *
     * @param pod       the pod's name in the messages
     * @param callsApi  whether the pod calls the Kubernetes API, and so keeps its service account's token
     */
    public static List<String> violations(String pod, PodSpec spec, boolean callsApi) {
        List<String> found = new ArrayList<>();
        PodSecurityContext podContext = spec.getSecurityContext() != null ? spec.getSecurityContext()
                : new PodSecurityContext();
        if (Boolean.TRUE.equals(spec.getHostNetwork()) || Boolean.TRUE.equals(spec.getHostPID())
                || Boolean.TRUE.equals(spec.getHostIPC())) {
            found.add(pod + ": shares a host namespace");
        }
        if (callsApi == Boolean.FALSE.equals(spec.getAutomountServiceAccountToken())) {
            found.add(pod + ": automountServiceAccountToken " + spec.getAutomountServiceAccountToken() + " (expected: "
                    + (callsApi ? "not false, since it calls the API" : "false, since it never calls the API") + ")");
        }
        for (Volume volume : nonNull(spec.getVolumes())) {
            JSON.valueToTree(volume).fieldNames().forEachRemaining(type -> {
                if (!type.equals("name") && !VOLUME_TYPES.contains(type)) {
                    found.add(pod + ": volume " + volume.getName() + " is a " + type);
                }
            });
        }
        for (Sysctl sysctl : nonNull(podContext.getSysctls())) {
            if (!SAFE_SYSCTLS.contains(sysctl.getName())) {
                found.add(pod + ": sysctl " + sysctl.getName() + " is not a safe one");
            }
        }
        if (podContext.getSeLinuxOptions() != null) {
            found.add(pod + ": sets seLinuxOptions");
        }
        if (Objects.equals(podContext.getRunAsUser(), 0L)) {
            found.add(pod + ": runAsUser 0");
        }
        if (podContext.getWindowsOptions() != null && Boolean.TRUE.equals(podContext.getWindowsOptions().getHostProcess())) {
            found.add(pod + ": a Windows HostProcess pod");
        }
        if (podContext.getAppArmorProfile() != null && "Unconfined".equals(podContext.getAppArmorProfile().getType())) {
            found.add(pod + ": AppArmor Unconfined");
        }
        List<Container> containers = Stream.concat(nonNull(spec.getInitContainers()).stream(),
                nonNull(spec.getContainers()).stream()).toList();
        if (containers.isEmpty()) {
            found.add(pod + ": no containers");
        }
        for (Container c : containers) {
            String name = pod + "/" + c.getName();
            SecurityContext context = c.getSecurityContext() != null ? c.getSecurityContext() : new SecurityContext();
            if (Boolean.TRUE.equals(context.getPrivileged())) {
                found.add(name + ": privileged");
            }
            if (!Boolean.FALSE.equals(context.getAllowPrivilegeEscalation())) {
                found.add(name + ": allowPrivilegeEscalation " + context.getAllowPrivilegeEscalation() + " (expected: false)");
            }
            Capabilities caps = context.getCapabilities() != null ? context.getCapabilities() : new Capabilities();
            if (!nonNull(caps.getDrop()).contains("ALL")) {
                found.add(name + ": capabilities drop " + caps.getDrop() + " (expected: ALL)");
            }
            if (!Set.of("NET_BIND_SERVICE").containsAll(nonNull(caps.getAdd()))) {
                found.add(name + ": capabilities add " + caps.getAdd() + " (expected: at most NET_BIND_SERVICE)");
            }
            if (!Boolean.TRUE.equals(effective(context, podContext, SecurityContext::getRunAsNonRoot,
                    PodSecurityContext::getRunAsNonRoot))) {
                found.add(name + ": runAsNonRoot is not true, on the container or the pod");
            }
            if (Objects.equals(context.getRunAsUser(), 0L)) {
                found.add(name + ": runAsUser 0");
            }
            SeccompProfile seccomp = effective(context, podContext, SecurityContext::getSeccompProfile,
                    PodSecurityContext::getSeccompProfile);
            if (seccomp == null || !SECCOMP_TYPES.contains(seccomp.getType())) {
                found.add(name + ": seccompProfile " + (seccomp == null ? null : seccomp.getType())
                        + " (expected: RuntimeDefault or Localhost, on the container or the pod)");
            }
            if (context.getSeLinuxOptions() != null) {
                found.add(name + ": sets seLinuxOptions");
            }
            if (context.getWindowsOptions() != null && Boolean.TRUE.equals(context.getWindowsOptions().getHostProcess())) {
                found.add(name + ": a Windows HostProcess container");
            }
            if (context.getAppArmorProfile() != null && "Unconfined".equals(context.getAppArmorProfile().getType())) {
                found.add(name + ": AppArmor Unconfined");
            }
            if (context.getProcMount() != null && !context.getProcMount().equals("Default")) {
                found.add(name + ": procMount " + context.getProcMount());
            }
            if (nonNull(c.getPorts()).stream().map(ContainerPort::getHostPort).anyMatch(p -> p != null && p != 0)) {
                found.add(name + ": a hostPort");
            }
            if (!Boolean.TRUE.equals(context.getReadOnlyRootFilesystem())) {
                found.add(name + ": readOnlyRootFilesystem " + context.getReadOnlyRootFilesystem() + " (expected: true)");
            }
            Map<String, Quantity> requests = c.getResources() == null ? null : c.getResources().getRequests();
            Map<String, Quantity> limits = c.getResources() == null ? null : c.getResources().getLimits();
            if (requests == null || !requests.containsKey("memory") || limits == null || !limits.containsKey("memory")) {
                found.add(name + ": no memory request and limit");
            }
        }
        return found;
    }

    private static <T> T effective(SecurityContext container, PodSecurityContext pod,
            Function<SecurityContext, T> ofContainer, Function<PodSecurityContext, T> ofPod) {
        T own = ofContainer.apply(container);
        return own != null ? own : ofPod.apply(pod);
    }

    private static <T> List<T> nonNull(List<T> list) {
        return list == null ? List.of() : list;
    }
}
