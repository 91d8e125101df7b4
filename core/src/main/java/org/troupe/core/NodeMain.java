package org.troupe.core;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.apache.commons.configuration2.ImmutableConfiguration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.troupe.config.TroupeSettings;
import org.troupe.core.transport.Addresses;

/**
 * The entry point of a node JVM: starts this JVM's runtime with one node, offers the node to the parent runtime
 * (proving the deployment secret), and serves until the parent goes away; then the JVM exits by itself, so no
 * orphan is left running.
 */
public final class NodeMain {
    private static final Logger LOG = LoggerFactory.getLogger(NodeMain.class);
    private static final String USAGE = """
        usage: java -cp <troupe class path> org.troupe.core.NodeMain --parent HOST:PORT[,HOST:PORT...]
                    (--name NODE ... | --name-prefix PREFIX [--nodes K] [--jvm-name NAME])
          Starts a Troupe runtime holding the given nodes and registers them with the runtime listening at
          HOST:PORT; given several, it tries each in turn (those this host has a route to) and registers with the
          first that answers. --name may be repeated; --name-prefix makes K nodes (default 1) named
          PREFIX<runtime id>-<i>, unique without coordination, as the JVMs of a batch job need; with
          --jvm-name, PREFIX<NAME>-<i>: the name its deployment gives this JVM (workers-3), which its output and
          log carry too, so that failures naming its nodes name the JVM as everything else does.
          The deployment secret comes from troupe.core.secretFile (a file only its owner may read) or
          troupe.core.secret (environment: TROUPE_CORE_SECRET); the allowed classes from
          troupe.serialization.allowedPackages. The JVM exits when the parent runtime goes away.
          It listens on 127.0.0.1 when HOST is a loopback address (the parent is on this host), else on the address
          of this host that routes to HOST, which it announces to the parent and the other nodes.
          troupe.core.bindAddress and troupe.core.advertiseAddress choose otherwise (-Dtroupe.core.bindAddress=...
          or the environment: TROUPE_CORE_BINDADDRESS=...; see docs/CONFIGURATION.md).
        """;

    private NodeMain() {}

    public static void main(final String[] args) throws InterruptedException {
        String parent = null;
        final List<String> names = new ArrayList<>();
        String prefix = null;
        String jvmName = null;
        int count = 1;
        for (int i = 0; i < args.length; i++) {
            final String value = i + 1 < args.length ? args[i + 1] : null;
            switch (args[i]) {
                case "--parent" -> parent = value;
                case "--name" -> names.add(value);
                case "--name-prefix" -> prefix = value;
                case "--jvm-name" ->
                    jvmName = value != null && value.matches("[A-Za-z0-9._-]{1,128}")
                            ? value
                            : fail("--jvm-name takes a name of letters, digits, '.', '_' and '-', not " + value);
                case "--nodes" ->
                    count = value != null && value.matches("[1-9][0-9]{0,3}")
                            ? Integer.parseInt(value)
                            : fail("--nodes takes a count from 1 to 9999, not " + value);
                case "--help", "-h" -> {
                    System.err.print(USAGE);
                    return;
                }
                default -> fail("unknown argument " + args[i]);
            }
            i++;
        }
        if (parent == null || names.contains(null) || (prefix == null) == names.isEmpty()) {
            fail("--parent and either --name or --name-prefix are required, each with a value");
        }
        final List<String> candidates = List.of(parent.split(",", -1));
        for (final String candidate : candidates) {
            try {
                Addresses.host(candidate);
                Addresses.port(candidate);
            } catch (IllegalArgumentException e) {
                fail(
                        candidates.size() == 1
                                ? "--parent takes the parent runtime's HOST:PORT, not " + parent
                                : "--parent takes the parent runtime's HOST:PORT[,HOST:PORT...], not " + parent + " ("
                                        + candidate + ": " + e.getMessage() + ")");
            }
        }
        final ImmutableConfiguration settings = TroupeSettings.load();
        if (candidates.size() > 1) {
            try {
                final Duration timeout = CoreConfig.fromSettings(settings).connectTimeout();
                parent = firstAnswering(candidates, Addresses::routeTo, c -> probe(c, timeout));
            } catch (IllegalArgumentException | IllegalStateException e) { // bad settings, or none answered
                System.err.println("troupe node: " + e.getMessage());
                System.exit(2);
                return;
            }
            LOG.info("The parent answered at {}, the first of {} that does", parent, candidates);
        }
        final String parentHost = Addresses.host(parent);
        final InetAddress parentAddress;
        try {
            parentAddress = Addresses.resolve(parentHost);
        } catch (IllegalArgumentException e) {
            fail("--parent " + parent + ": " + e.getMessage());
            return;
        }
        final CoreConfig config;
        try {
            final String bind = bindAddress(settings, parentAddress, Addresses::routeTo);
            config = bind == null
                    ? CoreConfig.fromSettings(settings)
                    : CoreConfig.builder(settings).bindAddress(bind).build();
            if (bind != null) {
                LOG.info(
                        "{} is not set and the parent's address {} is not loopback: listening on {}",
                        CoreConfig.BIND_ADDRESS_PROP_NAME,
                        parentHost,
                        config.advertiseAddress().isEmpty()
                                ? bind + ", the address of this host that routes to the parent"
                                : "every interface, announced as " + config.advertiseAddress());
            }
        } catch (IllegalArgumentException | UncheckedIOException e) { // the user can fix it: say how, no stack trace
            System.err.println("troupe node: "
                    + (e instanceof UncheckedIOException
                            ? "this host has no route to the"
                                    + " parent at " + parentHost + " (" + e.getMessage() + "): check --parent, or set "
                                    + CoreConfig.BIND_ADDRESS_PROP_NAME
                                    + " to an address of this host that the parent reaches"
                            : e.getMessage()));
            System.exit(2);
            return;
        }
        final TroupeRuntime runtime = TroupeRuntime.start(config);
        for (int k = 0; prefix != null && k < count; k++) {
            names.add(prefix + (jvmName == null ? runtime.id() : jvmName) + "-" + k);
        }
        names.forEach(runtime::createNode);
        final CountDownLatch parentGone = new CountDownLatch(1);
        // The parent may drop the link before offerNode returns (it needs no more nodes): every loss is noted, and
        // checked again once the parent's id is known.
        final Set<String> lost = ConcurrentHashMap.newKeySet();
        final AtomicReference<String> parentId = new AtomicReference<>();
        runtime.remoting().onPeerLost((id, reason) -> {
            lost.add(id);
            if (id.equals(parentId.get())) {
                // Silence is news for the node's log (a cut, a killed launcher); a closed link is how a
                // deployment ends.
                if (reason.startsWith("nothing heard from it")) {
                    LOG.warn("Parent runtime {} is gone ({}); node {} stops", id, reason, runtime.id());
                } else {
                    LOG.info("Parent runtime {} is gone ({}); node {} stops", id, reason, runtime.id());
                }
                parentGone.countDown();
            }
        });
        try {
            for (final String name : names) {
                parentId.set(runtime.offerNode(parent, name));
                if (lost.contains(parentId.get())) {
                    parentGone.countDown();
                    break;
                }
            }
        } catch (RuntimeException e) {
            LOG.error(
                    "Nodes {} could not register with their parent at {}: {}{}",
                    names,
                    parent,
                    e.getMessage(),
                    registrationHint(parentHost, parentAddress, e.getCause()));
            runtime.shutdown();
            System.exit(2);
        }
        runtime.reportMetricsTo(parent);
        LOG.info(
                "Nodes {} of runtime {} registered with {} and listen on {}",
                names,
                runtime.id(),
                parent,
                runtime.address());
        parentGone.await();
        runtime.shutdown();
        System.exit(0);
    }

    /**
     * Where a node JVM listens when its settings do not say ({@code troupe.core.bindAddress} unset), or null to
     * keep what they say: with a parent on this host (a loopback address), the default, loopback; else the address
     * of this host that routes to the parent ({@code route}), which the parent and the other nodes reach; with only
     * {@code troupe.core.advertiseAddress} set (this host is reached at an address it does not have, through NAT),
     * every interface.
     */
    static String bindAddress(
            final ImmutableConfiguration settings,
            final InetAddress parent,
            final Function<InetAddress, InetAddress> route) {
        if (settings.containsKey(CoreConfig.BIND_ADDRESS_PROP_NAME)
                || parent.isLoopbackAddress()
                || parent.isAnyLocalAddress()) {
            return null;
        }
        if (!settings.getString(CoreConfig.ADVERTISE_ADDRESS_PROP_NAME, "").isBlank()) {
            return "0.0.0.0";
        }
        return route.apply(parent).getHostAddress();
    }

    /**
     * The first of {@code candidates} (the parent's {@code host:port}s) that this host has a route to ({@code route})
     * and that answers ({@code probe}: null, or why not).
     *
     * @throws IllegalStateException when none does: why each did not, and what to check
     */
    static String firstAnswering(
            final List<String> candidates,
            final Function<InetAddress, InetAddress> route,
            final Function<String, String> probe) {
        final List<String> why = new ArrayList<>();
        for (final String candidate : candidates) {
            try {
                route.apply(Addresses.resolve(Addresses.host(candidate)));
            } catch (IllegalArgumentException | UncheckedIOException e) {
                why.add(candidate + ": "
                        + (e instanceof UncheckedIOException ? "no route (" + e.getMessage() + ")" : e.getMessage()));
                continue;
            }
            final String failure = probe.apply(candidate);
            if (failure == null) {
                return candidate;
            }
            why.add(candidate + ": " + failure);
        }
        throw new IllegalStateException("none of the parent's addresses answered (" + String.join("; ", why)
                + "): check that this host reaches the parent's host at one of them (no firewall in between), or start"
                + " the parent (the launcher) with " + CoreConfig.ADVERTISE_ADDRESS_PROP_NAME
                + "=<an address of its host"
                + " that this host reaches>");
    }

    /** Whether the runtime at {@code hostPort} accepts a connection within {@code timeout}: null, or why not. */
    private static String probe(final String hostPort, final Duration timeout) {
        try (Socket s = new Socket()) {
            s.connect(
                    new InetSocketAddress(Addresses.resolve(Addresses.host(hostPort)), Addresses.port(hostPort)),
                    (int) timeout.toMillis());
            return null;
        } catch (IOException e) {
            return e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
        }
    }

    /**
     * What to set when the parent at {@code host} could not be reached for {@code cause}; empty when the network was
     * not the problem (a handshake that failed says why itself).
     */
    static String registrationHint(final String host, final InetAddress parent, final Throwable cause) {
        if (!Addresses.isNetworkFailure(cause)) {
            return "";
        }
        final String setting = CoreConfig.BIND_ADDRESS_PROP_NAME + "=<an address of its host that this host reaches>";
        if (parent.isLoopbackAddress()) {
            return "; the parent announced " + host + ", a loopback address, which no other host can reach: if the"
                    + " parent (the launcher) runs on another host than this node, start it with " + setting
                    + " (or 0.0.0.0)";
        }
        if (parent.isAnyLocalAddress()) {
            return "; the parent announced " + host + ", a wildcard address, which names no host: start the parent"
                    + " (the launcher) with " + CoreConfig.ADVERTISE_ADDRESS_PROP_NAME + "=<an address of its host that"
                    + " this host reaches>";
        }
        return "; check that " + host + " is an address of the parent's host that this host reaches (no firewall in"
                + " between), and that the parent listens there: start it with " + CoreConfig.BIND_ADDRESS_PROP_NAME
                + "=" + host + " (or 0.0.0.0)";
    }

    /** Says what is wrong with the command line and exits 64; returns nothing (typed for the callers' expressions). */
    private static <T> T fail(final String message) {
        System.err.println("troupe node: " + message);
        System.err.print(USAGE);
        System.exit(64);
        return null;
    }
}
