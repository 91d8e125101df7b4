/** How groups work: the handler behind group proxies, tree reductions and SPMD bookkeeping; not for applications. */
package org.troupe.groups.internal;
