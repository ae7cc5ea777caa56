import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { PATH_METADATA } from '@nestjs/common/constants';
import { DiscoveryService, MetadataScanner } from '@nestjs/core';
import { bodyShapeOf } from './body-shape';
import { declaredInputs } from './declared-inputs';

/**
 * At start-up, builds the body shape of every route's @Body() DTO, so a DTO the shape check cannot
 * describe (an undocumented type, a nested DTO without @ValidateNested and @Type, documentation and
 * validation that disagree on required) stops the service from starting instead of failing a request.
 */
@Injectable()
export class RequestContractCheck implements OnApplicationBootstrap {
  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
  ) {}

  onApplicationBootstrap(): void {
    for (const wrapper of this.discovery.getControllers()) {
      const controller = wrapper.metatype as Function | null;
      if (!controller?.prototype) continue;
      for (const method of this.scanner.getAllMethodNames(controller.prototype)) {
        const handler = controller.prototype[method] as Function;
        if (Reflect.getMetadata(PATH_METADATA, handler) === undefined) continue;
        const { body } = declaredInputs(controller, handler);
        if (body && body !== Object) bodyShapeOf(body);
      }
    }
  }
}
