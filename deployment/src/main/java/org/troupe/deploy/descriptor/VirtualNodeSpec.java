package org.troupe.deploy.descriptor;

/**
 * A virtual node: a name the application uses, and the nodes it wants.
 *
 * @param capacity the nodes wanted; for a greedy one, all its mapping offers
 * @param greedy whether it takes whatever its mapping offers
 */
public record VirtualNodeSpec(String name, int capacity, boolean greedy) {}
