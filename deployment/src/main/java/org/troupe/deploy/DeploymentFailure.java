package org.troupe.deploy;

/**
 * Part of a deployment that did not start, or stopped: which virtual node lost how many nodes, through which
 * process chain, and why.
 *
 * @param launch the launch's label, e.g. {@code jem3d-2} (the second chain of virtual node jem3d)
 * @param chain its steps, e.g. {@code ssh 'front' -> pbs 'cluster' -> jvm 'nodes'}
 * @param nodesMissing the nodes it will not bring
 */
public record DeploymentFailure(String virtualNode, String launch, String chain, int nodesMissing, String reason) {
    @Override
    public String toString() {
        return "virtual node " + virtualNode + ", " + launch + " (" + chain + "): " + nodesMissing + " node"
                + (nodesMissing == 1 ? "" : "s") + " missing: " + reason;
    }
}
