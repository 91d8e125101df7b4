/** Generated proxies and invokers of active classes and future types (ClassFile API, hidden classes). */
package org.troupe.core.proxy;
