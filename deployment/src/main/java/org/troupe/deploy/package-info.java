/**
 * Deployment: {@link org.troupe.deploy.Deployment} starts what a descriptor describes and gathers the nodes that
 * call home into {@link org.troupe.deploy.VirtualNode}s; {@code bin/deploy} is its command line.
 */
package org.troupe.deploy;
