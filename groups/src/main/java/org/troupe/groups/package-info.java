/**
 * Typed groups, result groups, scatter and SPMD barriers. Its issue has not landed yet.
 */
package org.troupe.groups;
