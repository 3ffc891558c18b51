package io.dra4j.kubelet.dra;

import io.dra4j.kubelet.UnixSocketServer;
import io.dra4j.kubelet.cdi.CdiSpec;
import io.dra4j.kubelet.cdi.CdiSpecFiles;
import io.dra4j.kubelet.internal.Checkpoint;
import io.dra4j.kubelet.internal.DraServices;
import io.dra4j.kubelet.internal.HealthService;
import io.dra4j.kubelet.internal.NodeSelection;
import io.dra4j.kubelet.registration.PluginInfo;
import io.dra4j.kubelet.registration.RegistrationServer;
import io.fabric8.kubernetes.api.model.resource.v1.AllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Runs a {@link DraDriver} as a kubelet plugin: serves the DRA service ({@code v1.DRAPlugin}, and
 * {@code v1beta1.DRAPlugin} for older kubelets) on the driver's socket, then the registration service in the
 * kubelet's registry directory. For each claim of a NodePrepareResources call it reads the ResourceClaim by
 * namespace and name, refuses it when the UID differs, it is not allocated, its allocation is for another node or
 * has no device of this driver, or a device is already prepared for another claim; it hands the driver only this
 * driver's allocation results, records the claim in a crash-safe checkpoint before and after the driver prepares it,
 * writes its CDI spec and answers with request names stripped of subrequest suffixes. A repeated prepare returns the
 * recorded answer (and re-creates a CDI spec lost to a reboot); unprepare works from the checkpoint, so a deleted
 * claim is still unprepared. All prepare and unprepare calls are serialised (across instances with a file lock in
 * rolling-update mode, where the checkpoint is also re-read on every call). With health on it also serves
 * {@code v1.DRAResourceHealth} and {@code v1alpha1.DRAResourceHealth} (advertised in that order, the kubelet picks
 * the newest it knows), streaming what the driver reports through {@link #reportHealth}.
 */
public final class DraPlugin implements AutoCloseable {
    private final DraDriver driver;
    private final ClaimLookup claims;
    private final DraPluginOptions options;
    private final Checkpoint checkpoint;
    private final CdiSpecFiles cdi;
    private final HealthService health;
    private final ReentrantLock lock = new ReentrantLock();
    private volatile RegistrationStatus status = RegistrationStatus.PENDING;
    private UnixSocketServer draServer;
    private RegistrationServer registrar;

    private DraPlugin(DraDriver driver, ClaimLookup claims, DraPluginOptions options) {
        this.driver = driver;
        this.claims = claims;
        this.options = options;
        this.checkpoint = new Checkpoint(options.checkpointFile());
        this.cdi = new CdiSpecFiles(options.cdiDirectory());
        this.health = options.serveHealth() ? new HealthService() : null;
    }

    /**
     * Starts the DRA service and then the registration service. Fails with the cause when the checkpoint cannot be
     * read, the registry directory does not exist (a kubelet with another {@code --root-dir}) or a socket cannot be
     * created.
     */
    public static DraPlugin start(DraDriver driver, ClaimLookup claims, DraPluginOptions options) throws IOException {
        DraPlugin plugin = new DraPlugin(Objects.requireNonNull(driver), Objects.requireNonNull(claims), options);
        plugin.checkpoint.load();
        if (!Files.isDirectory(options.registrarDirectory())) {
            throw new IOException("kubelet plugin registry directory " + options.registrarDirectory()
                    + " does not exist: the kubelet would never find driver " + options.driverName()
                    + " (is the kubelet's --root-dir "
                    + options.registrarDirectory().getParent() + "?)");
        }
        if (!Files.isDirectory(options.pluginDataDirectory())) {
            Files.createDirectories(
                    options.pluginDataDirectory(),
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        }
        // Before the kubelet can call: the driver cleans up what no checkpointed claim uses.
        IOException[] unreadable = new IOException[1];
        try {
            plugin.serialized(() -> {
                try {
                    plugin.driver.started(plugin.checkpoint.load().claims().stream()
                            .map(e -> new PreparedClaim(e.claim(), e.devices()))
                            .toList());
                } catch (IOException e) {
                    unreadable[0] = e;
                }
            });
        } catch (IllegalStateException e) {
            throw new IOException(e.getMessage(), e);
        }
        if (unreadable[0] != null) {
            throw unreadable[0];
        }
        plugin.draServer = UnixSocketServer.start(
                options.draSocket(),
                DraServices.of(
                        plugin,
                        options.serveV1beta1(),
                        plugin.health,
                        options.serveHealthV1(),
                        options.serveHealthV1alpha1()));
        List<String> versions = new ArrayList<>(List.of(PluginInfo.DRA_V1));
        if (options.serveV1beta1()) {
            versions.add(PluginInfo.DRA_V1BETA1);
        }
        if (options.serveHealth() && options.serveHealthV1()) {
            versions.add(PluginInfo.HEALTH_V1);
        }
        if (options.serveHealth() && options.serveHealthV1alpha1()) {
            versions.add(PluginInfo.HEALTH_V1ALPHA1);
        }
        try {
            plugin.registrar = RegistrationServer.start(
                    options.registrationSocket(),
                    new PluginInfo(
                            PluginInfo.DRA_PLUGIN,
                            options.driverName(),
                            options.draSocket().toString(),
                            versions),
                    plugin::onRegistrationStatus);
        } catch (IOException e) {
            plugin.draServer.close();
            throw e;
        }
        return plugin;
    }

    private void onRegistrationStatus(boolean registered, String error) {
        status = new RegistrationStatus(true, registered, error);
        if (!registered) {
            driver.handleError(
                    "the kubelet did not register driver " + options.driverName() + ": " + error, null, false);
        }
    }

    /**
     * Reports the complete health of this driver's devices on every open NodeWatchResources stream (and to streams
     * the kubelet opens later). Call it whenever health changes and again well within the kubelet's timeout (30 s
     * unless a device sets its own), since the kubelet takes a device missing from the reports for Unknown.
     *
     * @throws IllegalStateException when the plugin was started without {@link DraPluginOptions#withHealth}
     */
    public void reportHealth(List<DeviceHealth> devices) {
        if (health == null) {
            throw new IllegalStateException("driver " + options.driverName() + " does not serve health: start it "
                    + "with DraPluginOptions.withHealth(true)");
        }
        health.report(List.copyOf(devices));
    }

    /** What the kubelet last reported about this plugin's registration. */
    public RegistrationStatus registrationStatus() {
        return status;
    }

    public DraPluginOptions options() {
        return options;
    }

    /** Whether both sockets still exist (the kubelet wipes its directories when it starts afresh). */
    public boolean socketsPresent() {
        return draServer.socketPresent() && registrar.socketPresent();
    }

    /** NodePrepareResources: one answer per claim UID. */
    public Map<String, ClaimPrepared> prepare(List<ClaimRef> refs) {
        // Reading claims from the API server is slow, so it happens before taking the serialisation lock.
        Map<String, Object> read = new LinkedHashMap<>();
        for (ClaimRef ref : refs) {
            read.put(ref.uid(), lookup(ref));
        }
        Map<String, ClaimPrepared> out = new LinkedHashMap<>();
        serialized(() -> {
            Checkpoint.Data[] data = new Checkpoint.Data[1];
            try {
                data[0] = checkpoint.load();
            } catch (IOException e) {
                driver.handleError(e.getMessage(), null, false);
                refs.forEach(r -> out.put(r.uid(), ClaimPrepared.failed(e.getMessage())));
                return;
            }
            for (ClaimRef ref : refs) {
                out.put(ref.uid(), prepareOne(ref, read.get(ref.uid()), data));
            }
        });
        return out;
    }

    private Object lookup(ClaimRef ref) {
        try {
            ResourceClaim claim = claims.get(ref.namespace(), ref.name());
            if (claim == null) {
                return "retrieve claim " + ref.namespace() + "/" + ref.name() + ": resourceclaims.resource.k8s.io \""
                        + ref.name() + "\" not found";
            }
            return claim;
        } catch (Exception e) {
            return "retrieve claim " + ref.namespace() + "/" + ref.name() + ": " + e.getMessage();
        }
    }

    private ClaimPrepared prepareOne(ClaimRef ref, Object read, Checkpoint.Data[] data) {
        Checkpoint.Entry existing = data[0].find(ref.uid()).orElse(null);
        if (existing != null && existing.state() == Checkpoint.State.PrepareCompleted) {
            // Already prepared: answer the same again, re-creating a CDI spec lost with a tmpfs on reboot.
            try {
                ensureCdiSpec(ref.uid(), existing.devices());
            } catch (IOException e) {
                return ClaimPrepared.failed("claim " + ref + ": re-create CDI spec: " + e.getMessage());
            }
            return answer(ref.uid(), existing.devices());
        }
        if (read instanceof String error) {
            return ClaimPrepared.failed(error);
        }
        ResourceClaim claim = (ResourceClaim) read;
        String name = ref.namespace() + "/" + ref.name();
        if (!ref.uid().equals(claim.getMetadata().getUid())) {
            return ClaimPrepared.failed("claim " + name + " got replaced: the kubelet asked for UID " + ref.uid()
                    + ", the API server has " + claim.getMetadata().getUid());
        }
        AllocationResult allocation =
                claim.getStatus() == null ? null : claim.getStatus().getAllocation();
        if (allocation == null) {
            return ClaimPrepared.failed("claim " + name + " not allocated");
        }
        if (!NodeSelection.selects(allocation.getNodeSelector(), options.nodeName(), options.nodeLabels())) {
            return ClaimPrepared.failed("claim " + name + " is allocated for another node: its node selector does not"
                    + " select node " + options.nodeName());
        }
        List<DeviceRequestAllocationResult> mine = allocation.getDevices() == null
                ? List.of()
                : allocation.getDevices().getResults().stream()
                        .filter(r -> options.driverName().equals(r.getDriver()))
                        .toList();
        if (mine.isEmpty()) {
            return ClaimPrepared.failed(
                    "claim " + name + ": its allocation has no device of driver " + options.driverName());
        }
        String overlap = overlap(ref, mine, data[0]);
        if (overlap != null) {
            return ClaimPrepared.failed(overlap);
        }
        if (existing != null) {
            // A prepare of this claim was interrupted (crash): undo whatever it did before preparing again.
            String rollback = driver.unprepare(new PreparedClaim(existing.claim(), existing.devices()));
            if (rollback != null && !rollback.isEmpty()) {
                return ClaimPrepared.failed("claim " + name + ": roll back the interrupted prepare: " + rollback);
            }
        }
        try {
            // The allocated devices go in first, so that undoing an interrupted prepare knows what to undo.
            List<PreparedDevice> allocated = mine.stream()
                    .map(r -> new PreparedDevice(
                            List.of(r.getRequest()), r.getPool(), r.getDevice(), r.getShareID(), null))
                    .toList();
            data[0] = data[0].with(new Checkpoint.Entry(ref, Checkpoint.State.PrepareStarted, allocated));
            checkpoint.store(data[0]);
        } catch (IOException e) {
            return ClaimPrepared.failed("claim " + name + ": " + e.getMessage());
        }
        PrepareResult result;
        try {
            result = driver.prepare(claim, mine);
        } catch (RuntimeException e) {
            result = PrepareResult.failed("prepare failed: " + e);
        }
        if (result instanceof PrepareResult.Failed failed) {
            try {
                data[0] = data[0].without(ref.uid());
                checkpoint.store(data[0]);
            } catch (IOException e) {
                return ClaimPrepared.failed("claim " + name + ": " + failed.error() + "; " + e.getMessage());
            }
            return ClaimPrepared.failed("claim " + name + ": " + failed.error());
        }
        List<PreparedDevice> devices = ((PrepareResult.Prepared) result).devices();
        Set<String> allocated = new LinkedHashSet<>();
        mine.forEach(r -> allocated.add(r.getPool() + "/" + r.getDevice()));
        for (PreparedDevice d : devices) {
            if (!allocated.contains(d.id())) {
                return ClaimPrepared.failed("claim " + name + ": driver prepared device " + d.id()
                        + ", which is not allocated to the claim");
            }
        }
        try {
            ensureCdiSpec(ref.uid(), devices);
            data[0] = data[0].with(new Checkpoint.Entry(ref, Checkpoint.State.PrepareCompleted, devices));
            checkpoint.store(data[0]);
        } catch (IOException | IllegalArgumentException e) {
            return ClaimPrepared.failed("claim " + name + ": " + e.getMessage());
        }
        return answer(ref.uid(), devices);
    }

    /** The last line of defence against giving one device to two unrelated claims. */
    private static String overlap(ClaimRef ref, List<DeviceRequestAllocationResult> mine, Checkpoint.Data data) {
        for (DeviceRequestAllocationResult r : mine) {
            if (Boolean.TRUE.equals(r.getAdminAccess()) || r.getShareID() != null) {
                continue;
            }
            for (Checkpoint.Entry e : data.claims()) {
                if (e.claim().uid().equals(ref.uid())) {
                    continue;
                }
                for (PreparedDevice d : e.devices()) {
                    if (d.shareId() == null
                            && d.pool().equals(r.getPool())
                            && d.device().equals(r.getDevice())) {
                        return "claim " + ref.namespace() + "/" + ref.name() + ": device " + d.id()
                                + " is already prepared for claim " + e.claim();
                    }
                }
            }
        }
        return null;
    }

    private static String cdiName(String claimUid, PreparedDevice d) {
        return claimUid + "-" + d.device() + (d.shareId() == null ? "" : "-" + d.shareId());
    }

    private void ensureCdiSpec(String claimUid, List<PreparedDevice> devices) throws IOException {
        List<CdiSpec.Device> cdiDevices = devices.stream()
                .filter(d -> !d.edits().noEdits())
                .map(d -> new CdiSpec.Device(cdiName(claimUid, d), d.edits()))
                .toList();
        if (cdiDevices.isEmpty()) {
            return;
        }
        Path file = cdi.path(options.cdiVendor(), options.cdiClass(), claimUid);
        if (!Files.exists(file)) {
            cdi.write(
                    new CdiSpec(
                            options.cdiVendor(),
                            options.cdiClass(),
                            cdiDevices,
                            io.dra4j.kubelet.cdi.ContainerEdits.NONE),
                    claimUid);
        }
    }

    private ClaimPrepared answer(String claimUid, List<PreparedDevice> devices) {
        List<NodeDevice> out = new ArrayList<>();
        for (PreparedDevice d : devices) {
            Set<String> requests = new LinkedHashSet<>();
            for (String r : d.requests()) {
                int slash = r.indexOf('/');
                requests.add(slash < 0 ? r : r.substring(0, slash));
            }
            List<String> ids = d.edits().noEdits()
                    ? List.of()
                    : List.of(options.cdiVendor() + "/" + options.cdiClass() + "=" + cdiName(claimUid, d));
            out.add(new NodeDevice(List.copyOf(requests), d.pool(), d.device(), ids, d.shareId()));
        }
        return new ClaimPrepared(out, "");
    }

    /** NodeUnprepareResources: one answer per claim UID, an empty string for success. */
    public Map<String, String> unprepare(List<ClaimRef> refs) {
        Map<String, String> out = new LinkedHashMap<>();
        serialized(() -> {
            Checkpoint.Data data;
            try {
                data = checkpoint.load();
            } catch (IOException e) {
                driver.handleError(e.getMessage(), null, false);
                refs.forEach(r -> out.put(r.uid(), e.getMessage()));
                return;
            }
            for (ClaimRef ref : refs) {
                Checkpoint.Entry entry = data.find(ref.uid()).orElse(null);
                if (entry == null) {
                    out.put(ref.uid(), "");
                    continue;
                }
                String error;
                try {
                    error = driver.unprepare(new PreparedClaim(entry.claim(), entry.devices()));
                } catch (RuntimeException e) {
                    error = "unprepare failed: " + e;
                }
                if (error != null && !error.isEmpty()) {
                    out.put(ref.uid(), "claim " + ref + ": " + error);
                    continue;
                }
                try {
                    cdi.delete(options.cdiVendor(), options.cdiClass(), ref.uid());
                    data = data.without(ref.uid());
                    checkpoint.store(data);
                    out.put(ref.uid(), "");
                } catch (IOException e) {
                    out.put(ref.uid(), "claim " + ref + ": " + e.getMessage());
                }
            }
        });
        return out;
    }

    /** The claims the checkpoint holds now. */
    public List<PreparedClaim> preparedClaims() throws IOException {
        return checkpoint.load().claims().stream()
                .filter(e -> e.state() == Checkpoint.State.PrepareCompleted)
                .map(e -> new PreparedClaim(e.claim(), e.devices()))
                .toList();
    }

    private void serialized(Runnable body) {
        lock.lock();
        try {
            if (options.rollingUpdatePodUid() == null) {
                body.run();
                return;
            }
            try (FileChannel ch = FileChannel.open(
                            options.serializeLockFile(), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                    FileLock ignored = acquire(ch)) {
                body.run();
            } catch (IOException e) {
                throw new IllegalStateException(
                        "cannot lock " + options.serializeLockFile() + ": " + e.getMessage(), e);
            }
        } finally {
            lock.unlock();
        }
    }

    /** Waits for the file lock, also when another instance in this JVM (a test) holds it. */
    private static FileLock acquire(FileChannel ch) throws IOException {
        while (true) {
            try {
                FileLock l = ch.tryLock();
                if (l != null) {
                    return l;
                }
            } catch (OverlappingFileLockException busy) {
                // held by another instance of this JVM: wait as for another process
            }
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while waiting for the serialisation lock", e);
            }
        }
    }

    /** Stops serving: the registration socket first, so the kubelet stops using this instance, then the service. */
    @Override
    public void close() {
        if (registrar != null) {
            registrar.close();
        }
        if (health != null) {
            health.close();
        }
        if (draServer != null) {
            draServer.close();
        }
    }
}
