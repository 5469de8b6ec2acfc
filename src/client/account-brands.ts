import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { AccountClient, CallOptions } from './esignature-client.js';
import { ClientBadResponseError } from './client-errors.js';
import { pathOf } from './redact.js';
import type { BrandLogoType } from '../envelope/brand-logo.js';

// The brands and Connect configurations of one account (DocuSign's Brands_*,
// Brand_*, Brand_*LogoByType and ConnectConfigurations_*), on the account
// client's base address. Knows nothing of job files: it speaks the wire.

/** DocuSign's three logos of a brand (Brand_PutBrandLogoByType's logoType). */

/** #/definitions/brand, as signrun reads and writes it. */
export interface BrandWire {
  brandId?: string;
  brandName?: string;
  brandCompany?: string;
  colors?: Array<{ name?: string; value?: string }>;
  emailContent?: Array<Record<string, string>>;
  isSendingDefault?: boolean | string;
  isSigningDefault?: boolean | string;
  /** The logos the brand has, each the address of its image. */
  logos?: Partial<Record<BrandLogoType, string>>;
}

/** #/definitions/connectCustomConfiguration, as signrun reads it: strings, lists, eventData. */
export type ConnectConfigurationWire = Record<string, unknown> & { connectId?: string; name?: string };

const enc = encodeURIComponent;
/** A logo bigger than this is not read for its digest (DocuSign's brand editor takes small images). */
const logoCapBytes = 10 * 1024 * 1024;

/** An account's brands and Connect configurations: what the plan reads and the pipeline writes. */
export class AccountBrands {
  readonly account: AccountClient;

  constructor(account: AccountClient) {
    this.account = account;
  }

  async #empty(method: 'PUT' | 'DELETE', path: string, operation: string, options: CallOptions): Promise<void> {
    await this.account.client.request(
      { method, url: `${this.account.baseUrl}${path}`, operation, idempotent: true },
      options,
    );
  }

  /** GET …/brands. */
  async listBrands(options: CallOptions = {}): Promise<BrandWire[]> {
    const answer = await this.account.requestJson<{ brands?: BrandWire[] }>('GET', '/brands', 'listBrands', options);
    return answer.brands ?? [];
  }

  /**
   * POST …/brands. `repeatable`: DocuSign does not refuse a second brand of
   * a name, so the caller lists again after a create and keeps one.
   */
  async createBrand(brand: BrandWire, options: CallOptions = {}): Promise<BrandWire[]> {
    const answer = await this.account.requestJson<{ brands?: BrandWire[] }>(
      'POST',
      '/brands',
      'createBrand',
      options,
      brand,
      true,
    );
    return answer.brands ?? [];
  }

  /** PUT …/brands/{brandId}: the fields given replace those of the brand. */
  async updateBrand(brandId: string, brand: BrandWire, options: CallOptions = {}): Promise<BrandWire> {
    return this.account.requestJson('PUT', `/brands/${enc(brandId)}`, 'updateBrand', options, brand);
  }

  /** DELETE …/brands/{brandId}. */
  async deleteBrand(brandId: string, options: CallOptions = {}): Promise<void> {
    await this.#empty('DELETE', `/brands/${enc(brandId)}`, 'deleteBrand', options);
  }

  /** PUT …/brands/{brandId}/logos/{logoType}: the image itself is the body. */
  async putLogo(
    brandId: string,
    type: BrandLogoType,
    image: { data: Buffer; contentType: string },
    options: CallOptions = {},
  ): Promise<void> {
    await this.account.client.request(
      {
        method: 'PUT',
        url: `${this.account.baseUrl}/brands/${enc(brandId)}/logos/${type}`,
        operation: 'putBrandLogo',
        idempotent: true,
        bytes: image,
      },
      options,
    );
  }

  /** GET …/brands/{brandId}/logos/{logoType}, read only for its sha256 (hex): logos are compared by digest. */
  async logoDigest(brandId: string, type: BrandLogoType, options: CallOptions = {}): Promise<string> {
    return createHash('sha256')
      .update(await this.downloadLogo(brandId, type, options))
      .digest('hex');
  }

  /**
   * GET …/brands/{brandId}/logos/{logoType}, the image itself (at most
   * 10 MB: DocuSign's brand editor takes small images), for
   * `signrun import account` to write it beside the job file.
   */
  async downloadLogo(brandId: string, type: BrandLogoType, options: CallOptions = {}): Promise<Buffer> {
    const url = `${this.account.baseUrl}/brands/${enc(brandId)}/logos/${type}`;
    const response = await this.account.client.request(
      { method: 'GET', url, operation: 'getBrandLogo', responseType: 'stream' },
      options,
    );
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of (response.stream ?? []) as Readable) {
      size += (chunk as Buffer).length;
      if (size > logoCapBytes) {
        response.stream?.destroy();
        throw new ClientBadResponseError(
          { method: 'GET', path: pathOf(url), operation: 'getBrandLogo' },
          `the logo is larger than ${logoCapBytes} bytes`,
        );
      }
      chunks.push(chunk as Buffer);
    }
    return Buffer.concat(chunks);
  }

  /** GET …/connect. */
  async listConnect(options: CallOptions = {}): Promise<ConnectConfigurationWire[]> {
    const answer = await this.account.requestJson<{ configurations?: ConnectConfigurationWire[] }>(
      'GET',
      '/connect',
      'listConnectConfigurations',
      options,
    );
    return answer.configurations ?? [];
  }

  /** POST …/connect. `repeatable` as a brand's create: the caller lists again and keeps one of a name. */
  async createConnect(config: Record<string, unknown>, options: CallOptions = {}): Promise<ConnectConfigurationWire> {
    return this.account.requestJson('POST', '/connect', 'createConnectConfiguration', options, config, true);
  }

  /** PUT …/connect: the body's connectId says which configuration. */
  async updateConnect(
    connectId: string,
    config: Record<string, unknown>,
    options: CallOptions = {},
  ): Promise<ConnectConfigurationWire> {
    return this.account.requestJson('PUT', '/connect', 'updateConnectConfiguration', options, { ...config, connectId });
  }

  /** DELETE …/connect/{connectId}. */
  async deleteConnect(connectId: string, options: CallOptions = {}): Promise<void> {
    await this.#empty('DELETE', `/connect/${enc(connectId)}`, 'deleteConnectConfiguration', options);
  }
}
