package org.troupe.deploy.descriptor;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * A checked deployment descriptor ({@link DescriptorLoader#load}): its virtual nodes, and for each the process
 * chains it is mapped onto.
 */
public record Descriptor(Path source, List<VirtualNodeSpec> virtualNodes, Map<String, List<ProcessSpec>> mapping) {
    /** What starting this descriptor would do, step by step, one block per virtual node. */
    public String plan() {
        return plan(chain -> null);
    }

    /** As {@link #plan()}, with a line after each chain: what {@code notes} says of it, if not null. */
    public String plan(final Function<ProcessSpec, String> notes) {
        final StringBuilder b =
                new StringBuilder("Deployment plan for ").append(source).append('\n');
        for (final VirtualNodeSpec vn : virtualNodes) {
            final List<ProcessSpec> chains = mapping.get(vn.name());
            final int offered =
                    chains.stream().mapToInt(ProcessSpec::nodesOffered).sum();
            b.append("virtual node ")
                    .append(vn.name())
                    .append(": wants ")
                    .append(
                            vn.greedy()
                                    ? "all it is offered"
                                    : vn.capacity() + " node" + (vn.capacity() == 1 ? "" : "s"))
                    .append(", offered ")
                    .append(offered)
                    .append('\n');
            if (!vn.greedy() && offered < vn.capacity()) {
                b.append("  note: the mapping offers fewer nodes than wanted; the application gets what arrives\n");
            }
            for (final ProcessSpec chain : chains) {
                String indent = "  ";
                for (ProcessSpec p = chain; p != null; p = p instanceof ProcessSpec.Launcher l ? l.child() : null) {
                    b.append(indent)
                            .append(indent.length() == 2 ? "" : "-> ")
                            .append(p.describe())
                            .append('\n');
                    indent += "  ";
                }
                final String note = notes.apply(chain);
                if (note != null) {
                    b.append("    ").append(note).append('\n');
                }
            }
        }
        return b.toString();
    }
}
