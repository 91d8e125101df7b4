/** How an active object serves its requests: the service API and the init, run and end hooks. */
package org.troupe.core.service;
