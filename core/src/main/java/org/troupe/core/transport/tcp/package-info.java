/** The TCP transport, on Netty: one authenticated connection per peer pair, heartbeats, pooled buffers. */
package org.troupe.core.transport.tcp;
