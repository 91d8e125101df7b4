/**
 * The Troupe runtime: nodes, transports, active objects, futures and requests.
 */
package org.troupe.core;
