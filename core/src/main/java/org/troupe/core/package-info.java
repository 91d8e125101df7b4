/**
 * The Troupe runtime: nodes, transports, active objects, futures and requests. Its issue has not landed yet.
 */
package org.troupe.core;
