/**
 * Typed groups: a group of {@code T} is itself a {@code T}, and a call on it goes to every member in parallel.
 * {@link org.troupe.groups.Groups} makes groups, {@link org.troupe.groups.Group} is the management view of one,
 * {@link org.troupe.groups.Spmd} gives the members of an SPMD group their rank and barriers.
 */
package org.troupe.groups;
