import { Controller, Get, Header, NotFoundException, Param, ServiceUnavailableException, StreamableFile, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { RateLimitGuard } from '../rate-limit/rate-limit.guard';
import { BuiltDashboard } from './built-dashboard';

/**
 * The page may load only its own scripts and styles and talk only to this service: the api-key it
 * holds can then never be sent anywhere else, whatever a card memo or merchant name contains.
 */
const CONTENT_SECURITY_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/**
 * Serves the built dashboard (apps/dashboard) at /dashboard. Public: the page holds no data and asks
 * the user for an api-key, then calls the same REST API any integrator calls. A controller of its own
 * rather than an adapter's static middleware, so it needs no static-file plugin and only ever
 * answers the files the build produced. A web page beside the API, like Swagger UI at /docs,
 * not an operation of it: left out of the OpenAPI document, which client generators and the fuzz
 * suite read.
 */
@ApiExcludeController()
@Controller('dashboard')
// Limited like the API, counted against the caller's IP (the page's requests carry no api-key).
@UseGuards(RateLimitGuard)
export class DashboardController {
  constructor(private readonly dashboard: BuiltDashboard) {}

  @Get()
  @Header('Cache-Control', 'no-cache')
  @Header('Content-Security-Policy', CONTENT_SECURITY_POLICY)
  @Header('X-Content-Type-Options', 'nosniff')
  page(): StreamableFile {
    if (!this.dashboard.built) throw new ServiceUnavailableException(`the dashboard is not built: run npm run build (looked in ${this.dashboard.directory})`);
    return this.answer('index.html');
  }

  @Get('assets/:file')
  // Built asset names carry a hash of their content, so they never change under a name.
  @Header('Cache-Control', 'public, max-age=31536000, immutable')
  @Header('X-Content-Type-Options', 'nosniff')
  asset(@Param('file') file: string): StreamableFile {
    return this.answer(`assets/${file}`);
  }

  private answer(relativePath: string): StreamableFile {
    const file = this.dashboard.file(relativePath);
    if (!file) throw new NotFoundException(`no dashboard file ${relativePath}`);
    return new StreamableFile(file.body, { type: file.contentType, length: file.body.length });
  }
}
