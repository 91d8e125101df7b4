package org.troupe.deploy;

import java.io.UncheckedIOException;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.troupe.core.CoreConfig;
import org.troupe.core.exceptions.TroupeException;
import org.troupe.core.spi.HostAddresses;
import org.troupe.deploy.descriptor.Descriptor;
import org.troupe.deploy.descriptor.ProcessSpec;

/**
 * Where a deployment's node JVMs dial this JVM (they "call home"), launch by launch, and where its runtime listens
 * for them; chosen once, before the runtime listens, from the descriptor and the settings.
 * <ul>
 * <li>A descriptor that stays on this host (local steps, SSH to this host) changes nothing: its JVMs dial what the
 * runtime announces, {@code 127.0.0.1} by default.</li>
 * <li>One that reaches other hosts (an SSH step to another host; a PBS or Slurm step, whose compute nodes are
 * others) needs an address they reach. With {@code troupe.core.bindAddress} unset, the runtime listens on the address
 * of this host that routes to them (on every interface if they need several), and each launch's JVMs dial the
 * address that routes to its host (for a batch system of this host, this host's address, as the runtime announces
 * it, or, if this host has several, each in turn, the runtime listening on every interface: which network its compute
 * nodes are on is not known here); its local JVMs dial one of those, so that they listen where the remote ones reach
 * them (NodeMain listens on the address that routes to its parent), or listen on every interface if those are on
 * several networks. Set to a wildcard: the same, where the runtime listens already. Set to another address, or
 * {@code troupe.core.advertiseAddress} set: the JVMs dial what the runtime announces. Either set to loopback (or a
 * name resolving to it), or a runtime that listens there already, or no route: it fails, naming the setting and the
 * value to try.</li>
 * </ul>
 */
final class HomeAddresses {
    private HomeAddresses() {}

    /** The network as the choice sees it: this host's ({@link #SYSTEM}), or a test's. */
    interface Network {
        /** @throws UnknownHostException when the name does not resolve */
        InetAddress resolve(String host) throws UnknownHostException;

        boolean isThisHost(InetAddress address);

        /** @throws UncheckedIOException when this host has no route to {@code remote} */
        InetAddress routeTo(InetAddress remote);

        /** What a runtime bound to every interface announces where no connection tells. */
        InetAddress hostAddress();

        /** The addresses of this host that another host may reach, {@link #hostAddress()} first. */
        List<InetAddress> addresses();

        Network SYSTEM = new Network() {
            @Override
            public InetAddress resolve(final String host) throws UnknownHostException {
                return InetAddress.getByName(host);
            }

            @Override
            public boolean isThisHost(final InetAddress address) {
                return HostAddresses.isThisHost(address);
            }

            @Override
            public InetAddress routeTo(final InetAddress remote) {
                return HostAddresses.routeTo(remote);
            }

            @Override
            public InetAddress hostAddress() {
                return HostAddresses.hostAddress();
            }

            @Override
            public List<InetAddress> addresses() {
                return HostAddresses.addresses();
            }
        };
    }

    /**
     * What was chosen.
     *
     * @param listenOn the interface the runtime is to listen on ({@code TroupeRuntime.listen(String)}), or null to
     *     listen as it is configured (or where it listens already)
     * @param dial per chain, the hosts its JVMs dial (on the runtime's port), the first that answers; absent for
     *     what the runtime announces
     * @param listenEverywhere per chain that stays on this host, the wildcard its JVMs listen on (that of
     *     {@code listenOn} or of the bind address) when the hosts reached are on several networks
     * @param announced what the runtime announces, or will: the host the other chains' JVMs dial
     * @param note what was chosen and why, in one line; null when the descriptor stays on this host
     */
    record Choice(
            String listenOn,
            Map<ProcessSpec, List<InetAddress>> dial,
            Map<ProcessSpec, String> listenEverywhere,
            String announced,
            String note) {
        /** The hosts {@code chain}'s JVMs dial. */
        String hostFor(final ProcessSpec chain) {
            final List<InetAddress> hosts = dial.get(chain);
            return hosts != null ? candidates(hosts) : announced;
        }
    }

    /** {@code hosts} as the user reads them: one address, or several to try in turn. */
    private static String candidates(final List<InetAddress> hosts) {
        return hosts.size() == 1
                ? hosts.getFirst().getHostAddress()
                : String.join(
                                ", ",
                                hosts.stream().map(InetAddress::getHostAddress).toList()) + " (the first that answers)";
    }

    /**
     * What a chain reaches beyond this host: {@code step} names it for messages; {@code host} is the SSH host's
     * address (null if its name does not resolve here: its launch fails, saying so), unless {@code batch}: a batch
     * system's compute nodes, the batch system running here.
     */
    private record Reach(String step, InetAddress host, boolean batch) {
        boolean routable() {
            return batch || host != null;
        }
    }

    /**
     * Chooses for {@code descriptor}, deployed by a runtime of {@code config} that listens on {@code boundTo} and
     * announces {@code announced} (both empty when it does not listen yet).
     *
     * @throws TroupeException when no address can work: what to set, and to which value
     */
    static Choice choose(
            final Descriptor descriptor,
            final CoreConfig config,
            final String boundTo,
            final String announced,
            final Network net) {
        final Map<ProcessSpec, Reach> reaches = new LinkedHashMap<>();
        final List<ProcessSpec> chains = new ArrayList<>();
        descriptor.mapping().values().forEach(chains::addAll);
        for (final ProcessSpec chain : chains) {
            final Reach r = reach(chain, net);
            if (r != null) {
                reaches.put(chain, r);
            }
        }
        final String key = CoreConfig.BIND_ADDRESS_PROP_NAME;
        final String bound = !boundTo.isEmpty() ? boundTo : config.bindAddressChosen() ? config.bindAddress() : null;
        if (reaches.isEmpty()) {
            return new Choice(null, Map.of(), Map.of(), announced(config, bound, announced, null, net), null);
        }
        final String what = descriptor.source() + " reaches other hosts ("
                + String.join(
                        ", ",
                        new LinkedHashSet<>(
                                reaches.values().stream().map(Reach::step).toList())) + ")";
        final String advertised = config.advertiseAddress();
        if (!advertised.isEmpty() && isLoopback(advertised, net)) {
            final String adv = CoreConfig.ADVERTISE_ADDRESS_PROP_NAME;
            throw new TroupeException(what + ", which cannot reach this JVM at " + shown(advertised, net) + ": " + adv
                    + "=" + advertised + " makes it announce that; set " + adv + "=" + suggestion(reaches.values(), net)
                    + ", or leave it unset for the deployment to choose");
        }
        if (!advertised.isEmpty()) {
            final String listenOn = bound == null ? "0.0.0.0" : null;
            return new Choice(
                    listenOn,
                    Map.of(),
                    Map.of(),
                    announced(config, bound, announced, listenOn, net),
                    what
                            + ": its node JVMs dial " + config.advertiseAddress() + ", which "
                            + CoreConfig.ADVERTISE_ADDRESS_PROP_NAME + " names"
                            + (listenOn == null ? "" : ", and this JVM" + " listens on every interface"));
        }
        if (bound != null && isLoopback(bound, net)) {
            throw new TroupeException(what + ", which cannot reach this JVM at " + shown(bound, net) + ": "
                    + (boundTo.isEmpty()
                            ? key + "=" + bound + " makes it listen there"
                            : "its runtime listens there already (" + announced + "), as " + key
                                    + " says, since before this deployment started")
                    + "; set " + key
                    + "=" + suggestion(reaches.values(), net) + ", or 0.0.0.0 for every interface"
                    + (boundTo.isEmpty() && config.bindAddressChosen()
                            ? ", or leave it unset for the deployment to choose"
                            : ""));
        }
        if (bound != null && !HostAddresses.isWildcard(bound)) {
            return new Choice(
                    null,
                    Map.of(),
                    Map.of(),
                    announced(config, bound, announced, null, net),
                    what
                            + ": its node JVMs dial " + bound + ", where "
                            + (boundTo.isEmpty() ? key + " makes this JVM listen" : "this JVM listens already"));
        }
        final Map<ProcessSpec, List<InetAddress>> dial = new LinkedHashMap<>();
        final Map<String, String> byStep = new LinkedHashMap<>();
        for (final Map.Entry<ProcessSpec, Reach> e : reaches.entrySet()) {
            final Reach r = e.getValue();
            if (r.routable()) {
                // which of this host's networks a batch system's compute nodes are on is not known here: its JVMs
                // try each address of this host
                final List<InetAddress> a = r.batch() ? batchHosts(net) : List.of(route(what, r, net));
                dial.put(e.getKey(), a);
                byStep.put(
                        r.step(),
                        a.size() == 1
                                ? a.getFirst().getHostAddress()
                                : "the first that answers of "
                                        + String.join(
                                                ", ",
                                                a.stream()
                                                        .map(InetAddress::getHostAddress)
                                                        .toList()));
            }
        }
        if (dial.isEmpty()) { // their launches fail to connect, and say why
            final String host = announced(config, bound, announced, null, net);
            return new Choice(
                    null,
                    Map.of(),
                    Map.of(),
                    host,
                    what + ": no address is chosen for them (their launches" + " fail to connect); node JVMs dial "
                            + host);
        }
        final InetAddress firstAddress = dial.values().iterator().next().getFirst();
        final Set<InetAddress> distinct = new LinkedHashSet<>();
        dial.values().forEach(distinct::addAll);
        final Map<ProcessSpec, String> everywhere = new LinkedHashMap<>();
        for (final ProcessSpec chain : chains) {
            if (dial.putIfAbsent(chain, List.of(firstAddress)) == null && distinct.size() > 1) {
                // local JVMs listen where the remote ones reach them: on every network when they are on several
                everywhere.put(chain, bound != null ? bound : wildcard(distinct));
            }
        }
        final String first = firstAddress.getHostAddress();
        final String listenOn;
        final String where;
        if (bound != null) {
            listenOn = null;
            where = (boundTo.isEmpty() ? key + "=" + bound + " makes this JVM listen" : "this JVM listens already")
                    + " on every interface";
        } else if (distinct.size() == 1) {
            listenOn = first;
            where = key + " is not set: this JVM listens on " + first
                    + (reaches.values().stream().allMatch(Reach::batch)
                            ? ", this host's address"
                            : ", the address of this host that routes to them");
        } else {
            listenOn = wildcard(distinct);
            where = key + " is not set: this JVM listens on every interface (" + listenOn + ")";
        }
        final List<String> each = new ArrayList<>();
        byStep.forEach((step, host) -> each.add(host + " for " + step));
        return new Choice(
                listenOn,
                dial,
                everywhere,
                announced(config, bound, announced, listenOn, net),
                what
                        + " and " + where + "; its node JVMs dial "
                        + (distinct.size() == 1
                                ? first
                                : "the address that routes"
                                        + " to their host (" + String.join(", ", each) + ")"
                                        + (everywhere.isEmpty()
                                                ? ""
                                                : ", and those of this host listen on every interface")));
    }

    private static String wildcard(final Set<InetAddress> addresses) {
        return addresses.stream().anyMatch(a -> a instanceof Inet6Address) ? "::" : "0.0.0.0";
    }

    /** Where a batch system's compute nodes dial this host: its address, or each of its addresses if several. */
    private static List<InetAddress> batchHosts(final Network net) {
        final List<InetAddress> all = net.addresses();
        return all.size() > 1 ? all : List.of(net.hostAddress());
    }

    /** Whether {@code host} is loopback, named so or resolving to it (a host name that /etc/hosts maps there). */
    private static boolean isLoopback(final String host, final Network net) {
        if (HostAddresses.isLoopback(host)) {
            return true;
        }
        try {
            return net.resolve(host).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false; // listening or dialing there fails, saying so
        }
    }

    /** {@code host}, and the address it resolves to if it is a name. */
    private static String shown(final String host, final Network net) {
        try {
            final String address = net.resolve(host).getHostAddress();
            return address.equals(host) ? host : host + " (" + address + ")";
        } catch (UnknownHostException e) {
            return host;
        }
    }

    /** The first SSH step of {@code chain} to another host, or else its batch step, or null: it stays here. */
    private static Reach reach(final ProcessSpec chain, final Network net) {
        for (ProcessSpec p = chain; p != null; p = p instanceof ProcessSpec.Launcher l ? l.child() : null) {
            switch (p) {
                case ProcessSpec.Ssh s -> {
                    final String step = "ssh '" + s.id() + "' " + s.host();
                    final InetAddress host;
                    try {
                        host = net.resolve(s.host());
                    } catch (UnknownHostException e) {
                        return new Reach(step + ", which does not resolve here", null, false);
                    }
                    if (!net.isThisHost(host)) {
                        return new Reach(
                                step + (s.host().equals(host.getHostAddress()) ? "" : " " + host.getHostAddress()),
                                host,
                                false);
                    }
                }
                case ProcessSpec.Pbs b -> {
                    return new Reach("the compute nodes of pbs '" + b.id() + "'", null, true);
                }
                case ProcessSpec.Slurm s -> {
                    return new Reach("the compute nodes of slurm '" + s.id() + "'", null, true);
                }
                default -> {}
            }
        }
        return null;
    }

    private static InetAddress route(final String what, final Reach reach, final Network net) {
        try {
            return net.routeTo(reach.host());
        } catch (UncheckedIOException e) {
            throw new TroupeException(what + ", but this host has no route to " + reach.step() + " ("
                    + e.getMessage() + "): check the host, or set " + CoreConfig.BIND_ADDRESS_PROP_NAME
                    + " to an address"
                    + " of this host that it reaches (and " + CoreConfig.ADVERTISE_ADDRESS_PROP_NAME + " if it reaches"
                    + " this host at another)");
        }
    }

    /** The value to try for the bind address: the address that routes to the hosts reached, if one does. */
    private static String suggestion(final Iterable<Reach> reaches, final Network net) {
        for (final Reach r : reaches) {
            if (!r.routable()) {
                continue;
            }
            try {
                final InetAddress a = r.batch() ? net.hostAddress() : net.routeTo(r.host());
                if (!a.isLoopbackAddress()) {
                    return a.getHostAddress() + " (the address of this host that routes to " + r.step() + ")";
                }
            } catch (UncheckedIOException e) {
                // no route to this one: another may do
            }
        }
        return "<an address of this host that they reach>";
    }

    /**
     * What the runtime announces, or will once it listens: {@code announced} if it listens already; else the
     * advertised host, or the interface it binds, or this host's address when that is a wildcard.
     */
    private static String announced(
            final CoreConfig config,
            final String bound,
            final String announced,
            final String listenOn,
            final Network net) {
        if (!announced.isEmpty()) {
            return HostAddresses.host(announced);
        }
        if (!config.advertiseAddress().isEmpty()) {
            return config.advertiseAddress();
        }
        final String bind = listenOn != null ? listenOn : bound != null ? bound : config.bindAddress();
        return HostAddresses.isWildcard(bind) ? net.hostAddress().getHostAddress() : bind;
    }
}
